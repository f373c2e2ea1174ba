package io.gridway.cluster;

import org.apache.helix.HelixManager;
import org.apache.helix.InstanceType;

/**
 * Runs a Helix controller for one cluster ({@code gridway controller}; later inside the admin service).
 * Start two or more: Helix elects one leader through an ephemeral znode; the others wait and one takes
 * over when the leader's session ends (a clean {@link #close()} at once, a crash after the session timeout).
 * On start it sets the cluster up ({@link ClusterAdmin#init()}, idempotent); with {@link ZkTls#acl()} the leader
 * also closes the znodes Helix creates open ({@link ZnodeAclSweeper}).
 *
 * <p>{@link #close()} it: Helix threads are non-daemon. Thread-safe.
 */
public final class ControllerHost implements AutoCloseable {
  private final String name;
  private HelixManager manager; // guarded by this
  private ZnodeAclSweeper sweeper; // guarded by this; null without an ACL

  private ControllerHost(String name, HelixManager manager) {
    this.name = name;
    this.manager = manager;
  }

  /** Starts controller {@code name} (unique per host, e.g. {@code controller-<host>}) on {@code cluster}. */
  public static ControllerHost start(ZkConfig zk, String cluster, String name) {
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
    }
    HelixManager manager = Helix.manager(zk, cluster, Helix.requireName(name, "controller"), InstanceType.CONTROLLER);
    try {
      manager.connect();
    } catch (Exception e) {
      manager.disconnect();
      throw new IllegalStateException("controller " + name + " cannot join cluster " + cluster + ": " + e.getMessage(), e);
    }
    ControllerHost host = new ControllerHost(name, manager);
    synchronized (host) {
      host.sweeper = ZnodeAclSweeper.startIfConfigured(zk, cluster, host::isLeader);
    }
    return host;
  }

  public String name() {
    return name;
  }

  /** Whether this controller currently leads the cluster. */
  public synchronized boolean isLeader() {
    return manager != null && manager.isLeader();
  }

  @Override
  public void close() {
    ZnodeAclSweeper stopping;
    synchronized (this) {
      stopping = sweeper;
      sweeper = null;
    }
    if (stopping != null) {
      stopping.close(); // outside the lock: a walk in progress asks isLeader()
    }
    synchronized (this) {
      if (manager != null) {
        manager.disconnect();
        manager = null;
      }
    }
  }
}
