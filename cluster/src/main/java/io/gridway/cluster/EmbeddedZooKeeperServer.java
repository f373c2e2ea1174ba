package io.gridway.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A standalone ZooKeeper server inside this process ({@code zk: embedded}) for single-machine use: one
 * node, on 127.0.0.1 only, with snapshots and transaction log in {@link ZkConfig#dataDir()} so that a
 * restart keeps the cluster's state. Not replicated: if this process dies, the cluster's control plane is
 * gone until it is back (consumers keep applying what they own; nothing moves).
 *
 * <p>With {@link ZkConfig#tls()}, the one client port is a secure port (Netty, TLS 1.2/1.3) that refuses, during the
 * handshake, a client without a certificate from the same CA. A key store or CA file renamed over the old one is used
 * for the connections accepted after it (ZooKeeper watches both files; {@link ZkProcessSecurity} turns that on).
 *
 * <p>Its threads are ZooKeeper's (non-daemon): {@link #close()} it. Thread-safe.
 */
public final class EmbeddedZooKeeperServer implements AutoCloseable {
  private static final int MAX_CLIENT_CONNECTIONS = 1000;

  private final ZkConfig config;
  private ServerCnxnFactory factory; // guarded by this
  private ZooKeeperServer server; // guarded by this

  private EmbeddedZooKeeperServer(ZkConfig config) {
    this.config = config;
  }

  /** Starts a server as {@code config} says; {@code config} must be {@linkplain ZkConfig#isEmbedded() embedded}. */
  public static EmbeddedZooKeeperServer start(ZkConfig config) {
    if (!config.isEmbedded()) {
      throw new IllegalArgumentException("zk: not embedded: " + config.connectString());
    }
    EmbeddedZooKeeperServer zk = new EmbeddedZooKeeperServer(config);
    zk.startServer();
    return zk;
  }

  private synchronized void startServer() {
    ZkTls tls = config.tls();
    if (tls != null && tls.keyStoreFile() == null) {
      throw new IllegalArgumentException("zkTls.keyStoreFile: required for the embedded server (its certificate, for "
          + "127.0.0.1, and the client certificate of this process)");
    }
    // the server reads the same zookeeper.ssl.* properties as the clients of this process
    ZkProcessSecurity.apply(tls);
    try {
      Files.createDirectories(config.dataDir());
      int tick = (int) config.tick().toMillis();
      ZooKeeperServer zks = new ZooKeeperServer(config.dataDir().toFile(), config.dataDir().toFile(), tick);
      zks.setMinSessionTimeout(2 * tick);
      zks.setMaxSessionTimeout(20 * tick);
      ServerCnxnFactory cnxn = EmbeddedServerTls.newFactory(tls, new InetSocketAddress("127.0.0.1", config.embeddedPort()),
          MAX_CLIENT_CONNECTIONS);
      try {
        cnxn.startup(zks);
      } catch (IOException | RuntimeException e) {
        cnxn.shutdown();
        throw e;
      }
      factory = cnxn;
      server = zks;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start ZooKeeper in " + config.dataDir() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting ZooKeeper", e);
    }
  }

  /** {@code 127.0.0.1:<port>}. */
  public synchronized String connectString() {
    if (factory == null) {
      throw new IllegalStateException("ZooKeeper is closed");
    }
    return "127.0.0.1:" + factory.getLocalPort();
  }

  /** The config that clients of this server use (external form, same session timeout). */
  public ZkConfig clientConfig() {
    return config.connectedTo(connectString());
  }

  /** Stops the server and closes its log; the data stays in the data directory. Idempotent. */
  @Override
  public synchronized void close() {
    if (factory == null) {
      return;
    }
    factory.shutdown();
    try {
      server.getZKDatabase().close();
    } catch (IOException e) {
      throw new IllegalStateException("cannot close the ZooKeeper database in " + config.dataDir(), e);
    } finally {
      factory = null;
      server = null;
    }
  }
}
