package io.gridway.cluster;

import org.apache.helix.HelixManager;
import org.apache.helix.InstanceType;
import org.apache.helix.manager.zk.ZKHelixAdmin;
import org.apache.helix.manager.zk.ZKHelixManager;

/** Names and Helix plumbing shared by this package. Stateless. */
final class Helix {
  static final String LEADER_STANDBY = "LeaderStandby";
  static final String ONLINE_OFFLINE = "OnlineOffline";
  static final String LEADER = "LEADER";
  static final String STANDBY = "STANDBY";
  static final String ONLINE = "ONLINE";
  /** Instance-config simple field holding a participant's HTTP endpoint. */
  static final String ENDPOINT_FIELD = "GRIDWAY_ENDPOINT";
  static final String GROUP_PREFIX = "group.";
  static final String RELAY_PREFIX = "relay.";

  /** Ideal-state simple field of a consumer group: its partitions paused one by one, comma-separated. */
  static final String PAUSED_FIELD = "GRIDWAY_PAUSED_PARTITIONS";

  private static final String SESSION_TIMEOUT_PROPERTY = "zk.session.timeout";

  private Helix() {}

  static String groupResource(String group) {
    return GROUP_PREFIX + requireName(group, "group");
  }

  static String relayResource(String source) {
    return RELAY_PREFIX + requireName(source, "source");
  }

  static String requireName(String name, String what) {
    if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
      throw new IllegalArgumentException(what + " name '" + name + "' must be 1-100 of [A-Za-z0-9_.-], starting alphanumeric");
    }
    return name;
  }

  /** Helix names a resource's partitions {@code <resource>_<n>}. */
  static String partitionName(String resource, int partition) {
    return resource + "_" + partition;
  }

  static java.util.SortedSet<Integer> pausedPartitions(org.apache.helix.model.IdealState is) {
    java.util.SortedSet<Integer> paused = new java.util.TreeSet<>();
    String field = is.getRecord().getSimpleField(PAUSED_FIELD);
    if (field != null && !field.isBlank()) {
      for (String p : field.split(",")) {
        paused.add(Integer.valueOf(p.trim()));
      }
    }
    return paused;
  }

  static void setPausedPartitions(org.apache.helix.model.IdealState is, java.util.SortedSet<Integer> paused) {
    is.getRecord().setSimpleField(PAUSED_FIELD, paused.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
  }

  static int partitionNumber(String partitionName) {
    return Integer.parseInt(partitionName.substring(partitionName.lastIndexOf('_') + 1));
  }

  /**
   * A manager (not yet connected) whose ZooKeeper session lasts {@code zk.sessionTimeout()}. Helix 1.4 takes
   * a single-realm session timeout only from the system property {@code zk.session.timeout}, read in the
   * manager's constructor (a connection config cannot be combined with a connect string), so the property
   * is set around the constructor, under a lock, and restored.
   */
  static HelixManager manager(ZkConfig zk, String cluster, String instance, InstanceType type) {
    synchronized (Helix.class) {
      String previous = System.getProperty(SESSION_TIMEOUT_PROPERTY);
      System.setProperty(SESSION_TIMEOUT_PROPERTY, Integer.toString(zk.sessionTimeoutMillis()));
      try {
        return new ZKHelixManager(cluster, instance, type, zk.requireConnectString());
      } finally {
        if (previous == null) {
          System.clearProperty(SESSION_TIMEOUT_PROPERTY);
        } else {
          System.setProperty(SESSION_TIMEOUT_PROPERTY, previous);
        }
      }
    }
  }

  /** An admin client; with {@link ZkTls#acl()}, the znodes it creates carry the grid's ACL. */
  @SuppressWarnings("deprecation") // Helix deprecates handing an admin a client; its builder cannot take our ACL client
  static ZKHelixAdmin admin(ZkConfig zk) {
    java.util.List<org.apache.zookeeper.data.ACL> acl = ZkAcl.of(zk.tls());
    if (acl == null) {
      return new ZKHelixAdmin.Builder().setZkAddress(zk.requireConnectString()).build();
    }
    org.apache.helix.zookeeper.impl.client.ZkClient client = AclZkClients.open(zk, acl, null);
    return new ZKHelixAdmin(client) {
      @Override
      public void close() {
        super.close();
        client.close(); // an admin does not close a client it was given
      }
    };
  }
}
