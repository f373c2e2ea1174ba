package io.gridway.cluster;

import org.apache.helix.manager.zk.ZkBaseDataAccessor;
import org.apache.helix.zookeeper.api.client.RealmAwareZkClient;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.apache.helix.zookeeper.datamodel.serializer.ZNRecordSerializer;

/**
 * A dedicated ZooKeeper client on the cluster's Helix property store ({@code /<cluster>/PROPERTYSTORE}),
 * where Gridway keeps checkpoints and relay positions under {@code /gridway}; with {@link ZkTls#acl()} the znodes it
 * creates carry the grid's ACL ({@link AclZkClients}). Thread-safe.
 */
final class PropertyStore implements AutoCloseable {
  final ZkBaseDataAccessor<ZNRecord> accessor;
  final String root;

  private final RealmAwareZkClient aclClient; // the accessor's client when the grid's znodes have an ACL; else null

  PropertyStore(ZkConfig zk, String cluster) {
    this(zk, cluster, new RealmAwareZkClient.RealmAwareZkClientConfig(), null);
  }

  /**
   * As above, but an operation attempted while ZooKeeper is unreachable gives up after {@code operationTimeout}
   * (Helix's default keeps retrying for a day), for callers that must not hang: a relay's position writes.
   */
  PropertyStore(ZkConfig zk, String cluster, java.time.Duration operationTimeout) {
    this(zk, cluster, new RealmAwareZkClient.RealmAwareZkClientConfig().setOperationRetryTimeout(operationTimeout.toMillis()),
        operationTimeout);
  }

  @SuppressWarnings("deprecation") // Helix deprecates handing an accessor a client; its builder cannot take our ACL client
  private PropertyStore(ZkConfig zk, String cluster, RealmAwareZkClient.RealmAwareZkClientConfig clientConfig,
      java.time.Duration operationTimeout) {
    this.root = "/" + Helix.requireName(cluster, "cluster") + "/PROPERTYSTORE/gridway";
    java.util.List<org.apache.zookeeper.data.ACL> acl = ZkAcl.of(zk.tls());
    if (acl != null) {
      this.aclClient = AclZkClients.open(zk, acl, operationTimeout);
      this.accessor = new ZkBaseDataAccessor<>(aclClient);
      return;
    }
    this.aclClient = null;
    this.accessor = new ZkBaseDataAccessor.Builder<ZNRecord>()
        .setZkAddress(zk.requireConnectString())
        .setRealmMode(RealmAwareZkClient.RealmMode.SINGLE_REALM)
        .setZkClientType(ZkBaseDataAccessor.ZkClientType.DEDICATED)
        .setRealmAwareZkConnectionConfig(new RealmAwareZkClient.RealmAwareZkConnectionConfig.Builder()
            .setRealmMode(RealmAwareZkClient.RealmMode.SINGLE_REALM)
            .setZkRealmShardingKey("/" + cluster)
            .setSessionTimeout(zk.sessionTimeoutMillis())
            .build())
        .setRealmAwareZkClientConfig(clientConfig.setZkSerializer(new ZNRecordSerializer()))
        .build();
  }

  String path(String... parts) {
    return root + "/" + String.join("/", parts);
  }

  @Override
  public void close() {
    accessor.close();
    if (aclClient != null) {
      aclClient.close(); // the accessor does not close a client it was given
    }
  }
}
