package io.gridway.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.helix.zookeeper.impl.client.ZkClient;
import org.apache.helix.zookeeper.zkclient.ZkConnection;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With {@link ZkTls#acl()}, the leading controller gives the grid's ACL, every {@link #INTERVAL}, to the znodes Helix's
 * managers created open since the last walk (live instances, current states, external views, messages: Helix 1.4 has
 * no ACL setting for its managers' clients). This bounds how long such a znode stays open; Gridway's own clients
 * create theirs closed from the start ({@link AclZkClients}).
 *
 * <p>One daemon thread; a failed walk is logged (WARN once, INFO when walks succeed again) and retried at the next
 * interval. Thread-safe.
 */
final class ZnodeAclSweeper implements AutoCloseable {
  static final Duration INTERVAL = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(ZnodeAclSweeper.class);

  private final String root;
  private final List<ACL> acl;
  private final BooleanSupplier leading;
  private final ZkClient client;
  private final ScheduledExecutorService timer;
  private String failing; // the last walk's error, null when it succeeded; timer thread only

  private ZnodeAclSweeper(ZkConfig zk, String cluster, List<ACL> acl, BooleanSupplier leading) {
    this.root = "/" + cluster;
    this.acl = acl;
    this.leading = leading;
    this.client = AclZkClients.open(zk, acl, null);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gridway-zk-acl-" + cluster);
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(this::sweep, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Starts sweeping {@code cluster} while {@code leading} says so; null when {@code zk} has no ACL. */
  static ZnodeAclSweeper startIfConfigured(ZkConfig zk, String cluster, BooleanSupplier leading) {
    List<ACL> acl = ZkAcl.of(zk.tls());
    return acl == null ? null : new ZnodeAclSweeper(zk, cluster, acl, Objects.requireNonNull(leading, "leading"));
  }

  private void sweep() {
    if (!leading.getAsBoolean()) {
      return;
    }
    try {
      int changed = ZkAcl.restrict(((ZkConnection) client.getConnection()).getZookeeper(), root, acl);
      LOG.debug("ZooKeeper: restricted {} znode(s) under {} created open by Helix", changed, root);
      if (failing != null) {
        LOG.info("ZooKeeper: restricting the ACLs under {} works again", root);
        failing = null;
      }
    } catch (KeeperException | RuntimeException e) {
      String message = e.getMessage();
      if (failing == null) {
        LOG.warn("ZooKeeper: cannot restrict the ACLs under {} ({}); retrying every {} s", root, message,
            INTERVAL.toSeconds());
      }
      failing = String.valueOf(message);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // close() is stopping the timer
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close();
  }
}
