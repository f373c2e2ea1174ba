package io.gridway.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone ZooKeeper server running inside the test JVM, on 127.0.0.1 on a free port, with its
 * snapshots and transaction log in a temporary directory.
 *
 * <p>Settings: tick 500 ms, so client sessions may last 1 s to 60 s (a test can make a crashed
 * client's session expire quickly). No admin server (only {@code ZooKeeperServerMain} starts one).
 * On first start it sets the system property {@code zookeeper.forceSync=no}, unless already set,
 * for the whole JVM: fsync per write would dominate test time and durability is not under test.
 *
 * <p>Two kinds: {@link #shared()}, one per JVM, which is never stopped by tests, and {@link
 * #dedicated()}, owned by the caller, for tests that stop or restart ZooKeeper; {@link #restart()}
 * keeps the data, the port and the client sessions (a client reconnects within its session
 * timeout). In JUnit, {@link ZooKeeperExtension} does both.
 *
 * <p>{@link #dedicatedWithTls} makes the one client port a secure port (Netty, TLS only) that refuses, during the
 * handshake, a client without a certificate from the given CA. ZooKeeper's server reads its TLS files from JVM-wide
 * system properties ({@code zookeeper.ssl.*}), which its client reads too: a test's clients in the same JVM use the
 * same CA and, as their certificate, {@link #keyStoreFile()} (so the server's certificate must be a {@link
 * TestPki#peer peer} certificate for {@code 127.0.0.1} and {@code localhost}; ZooKeeper's client checks 127.0.0.1 as
 * the name it resolves back to). One TLS server per JVM at a time.
 *
 * <p>Thread-safe: lifecycle methods are synchronized.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
  private static final int TICK_MILLIS = 500;
  private static final int MAX_SESSION_MILLIS = 60_000;
  private static final int MAX_CLIENT_CONNECTIONS = 1000;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final SharedInstance<EmbeddedZooKeeper> SHARED =
      new SharedInstance<>(() -> launch(true), EmbeddedZooKeeper::isClosed);

  private final boolean shared;
  private final InstanceLease lease;
  private final ServerTlsFiles tls; // null: a plain port
  private final Path keyStoreFile; // the server's key and certificate in one PEM (ZooKeeper's PEM key store)
  private int port; // fixed by the first start; guarded by this
  private ServerCnxnFactory factory; // null while stopped; guarded by this
  private ZooKeeperServer server; // guarded by this
  private boolean closed; // guarded by this

  private EmbeddedZooKeeper(boolean shared, InstanceLease lease, ServerTlsFiles tls) {
    this.shared = shared;
    this.lease = lease;
    this.tls = tls;
    this.keyStoreFile = tls == null ? null : lease.dir().resolve("zookeeper-keystore.pem");
  }

  /** This JVM's shared server, started on first use. Do not stop, restart or close it. */
  public static EmbeddedZooKeeper shared() {
    return SHARED.get();
  }

  /** A new server of the caller's own, running; the caller closes it. */
  public static EmbeddedZooKeeper dedicated() {
    return launch(false);
  }

  /**
   * A new server of the caller's own whose client port speaks TLS only and requires a client certificate from {@code
   * tls.caFile()}; the caller closes it. See the class comment for what this sets JVM-wide.
   *
   * @param tls the server's certificate and key ({@link TestPki#peer}, naming 127.0.0.1 and localhost) and the CA
   */
  public static EmbeddedZooKeeper dedicatedWithTls(ServerTlsFiles tls) {
    return launch(false, java.util.Objects.requireNonNull(tls, "tls"));
  }

  private static EmbeddedZooKeeper launch(boolean shared) {
    return launch(shared, null);
  }

  private static EmbeddedZooKeeper launch(boolean shared, ServerTlsFiles tls) {
    if (System.getProperty("zookeeper.forceSync") == null) {
      System.setProperty("zookeeper.forceSync", "no");
    }
    EmbeddedZooKeeper zk = new EmbeddedZooKeeper(shared, InstanceLease.acquire("zookeeper"), tls);
    ShutdownHook.register(zk, zk::shutdown);
    try {
      zk.startServer();
      return zk;
    } catch (RuntimeException e) {
      zk.shutdown();
      throw e;
    }
  }

  private synchronized void startServer() {
    if (factory != null) {
      return;
    }
    long begin = System.nanoTime();
    try {
      Path data = Files.createDirectories(lease.dir().resolve("data"));
      ZooKeeperServer zks = new ZooKeeperServer(data.toFile(), data.toFile(), TICK_MILLIS);
      zks.setMaxSessionTimeout(MAX_SESSION_MILLIS);
      // port 0 on the first start: the OS picks a free port with no window for another process to
      // take it
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
      ServerCnxnFactory cnxnFactory =
          tls == null
              ? ServerCnxnFactory.createFactory(address, MAX_CLIENT_CONNECTIONS)
              : ZooKeeperTlsPort.create(tls, keyStoreFile, address, MAX_CLIENT_CONNECTIONS);
      try {
        cnxnFactory.startup(zks);
      } catch (IOException | RuntimeException e) {
        cnxnFactory.shutdown();
        throw e;
      }
      factory = cnxnFactory;
      server = zks;
      port = cnxnFactory.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start ZooKeeper in " + lease.dir(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting ZooKeeper", e);
    }
    int boundPort = port;
    if (tls == null) {
      Poll.until(
          "ZooKeeper on 127.0.0.1:" + boundPort + " did not answer 'srvr'",
          START_TIMEOUT,
          () -> srvr(boundPort).contains("Mode: standalone"),
          () -> "(ZooKeeper logs through SLF4J; see the test log)");
    } else {
      // a TLS port answers no plain 'srvr'; it is bound once startup() returned: accepting connections is enough
      Poll.until(
          "ZooKeeper's TLS port 127.0.0.1:" + boundPort + " does not accept connections",
          START_TIMEOUT,
          () -> accepts(boundPort),
          () -> "(ZooKeeper logs through SLF4J; see the test log)");
    }
    LOG.info(
        "{}ZooKeeper ready on 127.0.0.1:{}{} in {} ms (data in {})",
        shared ? "shared " : "",
        boundPort,
        tls == null ? "" : " (TLS only, client certificates from " + tls.caFile() + ")",
        (System.nanoTime() - begin) / 1_000_000,
        lease.dir());
  }

  /** The four-letter command {@code srvr}, the one ZooKeeper allows without configuration. */
  private static String srvr(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("srvr".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }

  private static boolean accepts(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    }
  }

  public String host() {
    return "127.0.0.1";
  }

  public synchronized int port() {
    return port;
  }

  /** {@code 127.0.0.1:<port>}, for {@code new ZooKeeper(connectString, ...)} or Helix. */
  public String connectString() {
    return "127.0.0.1:" + port();
  }

  /** Whether the client port speaks TLS only ({@link #dedicatedWithTls}). */
  public boolean isTls() {
    return tls != null;
  }

  /**
   * The server's private key followed by its certificate in one PEM file (mode 0600), ZooKeeper's {@code PEM} key
   * store: what this JVM's clients present as their certificate. Only with {@link #dedicatedWithTls}.
   */
  public Path keyStoreFile() {
    if (tls == null) {
      throw new IllegalStateException("a plain ZooKeeper has no key store; use dedicatedWithTls");
    }
    return keyStoreFile;
  }

  public synchronized boolean isRunning() {
    return factory != null;
  }

  /** Stops the server; data and port are kept for {@link #start()}. Clients see a disconnection. */
  public void stop() {
    requireDedicated("stop");
    stopServer();
  }

  /** Starts a stopped server again on the same data and port. */
  public void start() {
    requireDedicated("start");
    startServer();
  }

  /** {@link #stop()} then {@link #start()}. */
  public synchronized void restart() {
    requireDedicated("restart");
    stopServer();
    startServer();
  }

  private synchronized void stopServer() {
    if (factory == null) {
      return;
    }
    factory.shutdown(); // closes the connections and shuts the server down
    try {
      // shutdown() leaves the transaction log open; a restart in the same JVM must not share it
      server.getZKDatabase().close();
    } catch (IOException e) {
      throw new IllegalStateException("cannot close the ZooKeeper database in " + lease.dir(), e);
    } finally {
      factory = null;
      server = null;
    }
  }

  /** Stops a dedicated server and deletes its data. Not allowed on the {@link #shared()} one. */
  @Override
  public void close() {
    requireDedicated("close");
    shutdown();
  }

  synchronized void shutdown() {
    if (closed) {
      return;
    }
    closed = true;
    ShutdownHook.unregister(this);
    try {
      stopServer();
    } finally {
      lease.release();
    }
  }

  synchronized boolean isClosed() {
    return closed;
  }

  private void requireDedicated(String action) {
    if (shared) {
      throw new UnsupportedOperationException(
          "cannot "
              + action
              + " the shared ZooKeeper: other test classes use it too;"
              + " use EmbeddedZooKeeper.dedicated() (or ZooKeeperExtension.dedicated())");
    }
  }

  @Override
  public String toString() {
    return (shared ? "shared " : "") + "EmbeddedZooKeeper[" + connectString() + (tls == null ? "" : ", TLS") + "]";
  }
}
