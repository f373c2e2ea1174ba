package io.gridway.cluster;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.helix.zookeeper.zkclient.ZkConnection;
import org.apache.helix.zookeeper.zkclient.exception.ZkException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/**
 * Helix's connection with an {@link AclZooKeeper} in place of the plain client, at the first connection and at every
 * re-creation of an expired session. Mirrors {@link ZkConnection}'s own {@code connect}/{@code reconnect}, which build
 * {@code new ZooKeeper(...)} and offer no other way in; its {@code close} and every operation use the client set here.
 *
 * <p>Thread-safe: Helix's {@code ZkClient} calls connect and reconnect under its own event lock; the lock here keeps a
 * reconnect from interleaving with another.
 */
final class AclZkConnection extends ZkConnection {
  private final String servers;
  private final int sessionTimeout;
  private final List<ACL> acl;
  private final ReentrantLock lock = new ReentrantLock();

  AclZkConnection(String servers, int sessionTimeout, List<ACL> acl) {
    super(servers, sessionTimeout);
    this.servers = servers;
    this.sessionTimeout = sessionTimeout;
    this.acl = acl;
  }

  @Override
  public void connect(Watcher watcher) {
    lock.lock();
    try {
      if (_zk != null) {
        throw new IllegalStateException("ZooKeeper client already connected");
      }
      _zk = open(watcher);
    } finally {
      lock.unlock();
    }
  }

  @Override
  protected void reconnect(Watcher watcher) throws InterruptedException {
    lock.lock();
    try {
      if (_zk == null) {
        throw new IllegalStateException("ZooKeeper client is closed, or was never connected");
      }
      ZooKeeper previous = _zk;
      _zk = open(watcher);
      previous.close();
    } finally {
      lock.unlock();
    }
  }

  private ZooKeeper open(Watcher watcher) {
    try {
      return new AclZooKeeper(servers, sessionTimeout, watcher, acl);
    } catch (IOException e) {
      throw new ZkException("Unable to connect to " + servers, e);
    }
  }
}
