package io.gridway.relay.cluster;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.EmbeddedZooKeeperServer;
import io.gridway.cluster.RelayParticipant;
import io.gridway.cluster.RelayPositionStore;
import io.gridway.cluster.ZkConfig;
import io.gridway.relay.position.PositionStorage;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A relay's place in the cluster, in the order a relay process needs it: {@link #open} (start the embedded
 * ZooKeeper if configured, set up the cluster and resource {@code relay.<source>}, open the position store) before
 * the relay reads its position; {@link #positions} for the relay's position storage; {@link #join} once the HTTP
 * API is bound, so consumers are sent only to a relay that answers; {@link #leave} before the relay stops, and
 * {@link #close} after its last position write.
 *
 * <p>Resource {@code relay.<source>} has the source's partitions, each on {@code cluster.replicas} relays (FULL_AUTO,
 * OnlineOffline): every relay of the source serves every partition its fetch policy produces, so Helix may place
 * each partition on any of them. Consumers read the external view through {@code RelayDirectory}.
 *
 * <p>Thread-safe; {@link #close()} it (Helix and ZooKeeper threads are non-daemon).
 */
public final class RelayMembership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayMembership.class);

  private final RelayClusterConfig config;
  private final String source;
  private final EmbeddedZooKeeperServer server;
  private final ZkConfig zk;
  private final RelayPositionStore store;
  private RelayParticipant participant; // guarded by this

  private RelayMembership(RelayClusterConfig config, String source, EmbeddedZooKeeperServer server, ZkConfig zk,
      RelayPositionStore store) {
    this.config = config;
    this.source = source;
    this.server = server;
    this.zk = zk;
    this.store = store;
  }

  /**
   * Connects to ZooKeeper (starting the embedded server first if configured) and sets up the cluster and
   * {@code relay.<source>} (idempotent; the replicas are updated to the configured count).
   *
   * @throws IllegalArgumentException when {@code relay.<source>} exists with another partition count
   * @throws IllegalStateException when ZooKeeper cannot be reached
   */
  public static RelayMembership open(RelayClusterConfig config, String source, int partitions) {
    ZkConfig configured = config.zkConfig();
    EmbeddedZooKeeperServer server = configured.isEmbedded() ? EmbeddedZooKeeperServer.start(configured) : null;
    ZkConfig zk = server == null ? configured : server.clientConfig();
    RelayPositionStore store = null;
    try {
      try (ClusterAdmin admin = new ClusterAdmin(zk, config.name())) {
        admin.init();
        admin.ensureRelayResource(source, partitions, config.replicas());
      }
      store = RelayPositionStore.open(zk, config.name());
      LOG.info("relay {} in cluster {} (ZooKeeper {}): resource relay.{}, {} partitions, {} replicas", config.instance(),
          config.name(), zk.connectString(), source, partitions, config.replicas());
      return new RelayMembership(config, source, server, zk, store);
    } catch (RuntimeException e) {
      if (store != null) {
        store.close();
      }
      if (server != null) {
        server.close();
      }
      throw e instanceof IllegalArgumentException ? e
          : new IllegalStateException("cannot join cluster " + config.name() + " at " + zk.connectString() + ": " + e.getMessage(), e);
    }
  }

  /** Where the relay keeps its position: ZooKeeper, mirrored to {@code localFile} when there is one (may be null). */
  public PositionStorage positions(PositionStorage localFile, Clock clock) {
    PositionStorage shared = new ZkPositions(store, source, config.instance(), clock);
    return localFile == null ? shared : new MirroredPositions(localFile, shared);
  }

  /**
   * Joins as a participant advertising the configured endpoint, or {@code <scheme>://<httpHost>:<bound port>} (the
   * host name when bound to every interface; {@code https} when the HTTP API serves TLS). Returns the advertised
   * endpoint.
   */
  public synchronized String join(InetSocketAddress bound, String httpHost, String scheme) {
    if (participant != null) {
      throw new IllegalStateException("relay " + config.instance() + " already joined");
    }
    String endpoint = config.endpoint() != null ? config.endpoint() : scheme + "://" + advertisedHost(httpHost) + ":" + bound.getPort();
    RelayParticipant p = new RelayParticipant(zk, config.name(), config.instance(), endpoint, source, RelayParticipant.Partitions.NONE);
    p.start();
    participant = p;
    LOG.info("relay {} joined cluster {} advertising {}", config.instance(), config.name(), endpoint);
    return endpoint;
  }

  private static String advertisedHost(String httpHost) {
    if (!httpHost.equals("0.0.0.0") && !httpHost.equals("::") && !httpHost.equals("[::]")) {
      return httpHost;
    }
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      throw new IllegalStateException("http.host is " + httpHost + " and this host has no name: set cluster.endpoint", e);
    }
  }

  /**
   * Leaves the cluster: consumers move to the other replicas. The position store stays open for the relay's last
   * position write. Idempotent.
   */
  public synchronized void leave() {
    if (participant != null) {
      participant.close();
      participant = null;
      LOG.info("relay {} left cluster {}", config.instance(), config.name());
    }
  }

  /** {@link #leave}s, then closes the position store and the embedded server. */
  @Override
  public synchronized void close() {
    try {
      leave();
    } finally {
      try {
        store.close();
      } finally {
        if (server != null) {
          server.close();
        }
      }
    }
  }
}
