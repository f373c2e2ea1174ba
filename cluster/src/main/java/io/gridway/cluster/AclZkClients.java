package io.gridway.cluster;

import java.time.Duration;
import java.util.List;
import org.apache.helix.zookeeper.datamodel.serializer.ZNRecordSerializer;
import org.apache.helix.zookeeper.impl.client.ZkClient;
import org.apache.zookeeper.data.ACL;

/**
 * Helix clients of this module that create znodes with the grid's ACL ({@link ZkTls#acl()}): the property store's
 * (checkpoints, relay positions, resets) and the cluster admin's (the cluster's structure, groups, instances). Helix's
 * factories build their own connection; these clients are built on an {@link AclZkConnection} instead. Helix's
 * managers (participants, controller) build theirs inside and cannot be given one: {@link ZkAcl#restrict} covers
 * what they create.
 *
 * <p>Stateless.
 */
final class AclZkClients {
  /** How long a new client waits for its first connection (Helix's own default for dedicated clients). */
  private static final int CONNECT_TIMEOUT_MILLIS = 60_000;

  private AclZkClients() {}

  /**
   * A dedicated client for {@code zk} whose creates carry {@code acl}; operations attempted while ZooKeeper is
   * unreachable are retried for {@code operationRetryTimeout} (null: Helix's default, unbounded).
   */
  static ZkClient open(ZkConfig zk, List<ACL> acl, Duration operationRetryTimeout) {
    String servers = zk.requireConnectString();
    AclZkConnection connection = new AclZkConnection(servers, zk.sessionTimeoutMillis(), acl);
    return operationRetryTimeout == null
        ? new ZkClient(connection, CONNECT_TIMEOUT_MILLIS, new ZNRecordSerializer())
        : new ZkClient(connection, CONNECT_TIMEOUT_MILLIS, new ZNRecordSerializer(), operationRetryTimeout.toMillis());
  }
}
