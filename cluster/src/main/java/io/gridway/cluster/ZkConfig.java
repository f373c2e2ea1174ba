package io.gridway.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where ZooKeeper is and how long a session lives: either {@code zk: embedded} (an in-process server with
 * its data in {@link #dataDir()}, on loopback, see {@link EmbeddedZooKeeperServer}) or a connect string to
 * an external ensemble.
 *
 * <p><b>Timing.</b> A crashed process is noticed only when its ZooKeeper session expires, so {@link
 * #sessionTimeout()} bounds how long a dead consumer's partitions stay unowned. The default is 6 s, not
 * Helix's 30 s: a kill -9 then moves partitions in about 7 s (under the 10 s issue 9 asks for), and a
 * pause longer than 6 s costs only a rejoin, because fencing keeps the paused owner from committing.
 * The {@linkplain #fast() fast setting} is a 2 s session on a 500 ms tick: a kill -9 then moves
 * partitions in about 2 s, but any pause longer than about 2 s (a full GC, a loaded VM, a network
 * hiccup) also expires the session, the process loses all its partitions and must rejoin, and ZooKeeper carries
 * more heartbeats (one per session every third of the timeout). A graceful stop moves partitions in
 * 0.1-0.3 s whatever the session timeout. An external ensemble bounds sessions between 2 and 20 of its
 * ticks; {@link #tick()} is used only by the embedded server.
 *
 * @param connectString {@code host:port[,host:port...]} of an external ensemble; {@code null} when embedded
 * @param dataDir the embedded server's snapshot and log directory; {@code null} when external
 * @param embeddedPort the embedded server's loopback port, 0 for any free port
 * @param sessionTimeout ZooKeeper session timeout of every Helix manager and client this module opens
 * @param tick the embedded server's tick (sessions may last 2..20 ticks)
 * @param tls TLS (and client certificate) of every client this module opens, and of the embedded server's client
 *     port; null for plain TCP
 */
public record ZkConfig(String connectString, Path dataDir, int embeddedPort, Duration sessionTimeout, Duration tick,
    ZkTls tls) {

  /** The default session timeout (Helix's own is 30 s; see the class comment for why shorter). */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(6);
  /** ZooKeeper's default tick; with it, sessions may last 4..40 s. */
  public static final Duration DEFAULT_TICK = Duration.ofSeconds(2);
  /** The fast setting's session timeout. */
  public static final Duration FAST_SESSION_TIMEOUT = Duration.ofSeconds(2);
  /** The fast setting's tick. */
  public static final Duration FAST_TICK = Duration.ofMillis(500);

  public ZkConfig {
    Objects.requireNonNull(sessionTimeout, "sessionTimeout");
    Objects.requireNonNull(tick, "tick");
    if ((connectString == null) == (dataDir == null)) {
      throw new IllegalArgumentException("zk: give either a connect string (external) or a data dir (embedded)");
    }
    if (connectString != null && connectString.isBlank()) {
      throw new IllegalArgumentException("zk: connect string is blank");
    }
    if (embeddedPort < 0 || embeddedPort > 0xFFFF) {
      throw new IllegalArgumentException("zk: port " + embeddedPort + " out of range 0..65535");
    }
    if (sessionTimeout.toMillis() < 1000 || sessionTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("zk: session timeout " + sessionTimeout + " below 1 s or too long");
    }
    if (tick.toMillis() < 1) {
      throw new IllegalArgumentException("zk: tick " + tick + " is not positive");
    }
    if (dataDir != null && (sessionTimeout.toMillis() < 2 * tick.toMillis() || sessionTimeout.toMillis() > 20 * tick.toMillis())) {
      throw new IllegalArgumentException("zk: session timeout " + sessionTimeout + " is not within 2..20 ticks of " + tick
          + " (the embedded server would silently clamp it)");
    }
  }

  /** Plain TCP. */
  public ZkConfig(String connectString, Path dataDir, int embeddedPort, Duration sessionTimeout, Duration tick) {
    this(connectString, dataDir, embeddedPort, sessionTimeout, tick, null);
  }

  /** An in-process server with its data in {@code dataDir}, on {@code port} of 127.0.0.1 (0: any). */
  public static ZkConfig embedded(Path dataDir, int port) {
    return new ZkConfig(null, Objects.requireNonNull(dataDir, "dataDir"), port, DEFAULT_SESSION_TIMEOUT, DEFAULT_TICK);
  }

  /** An external ensemble. */
  public static ZkConfig external(String connectString) {
    return new ZkConfig(Objects.requireNonNull(connectString, "connectString"), null, 0, DEFAULT_SESSION_TIMEOUT,
        DEFAULT_TICK);
  }

  public boolean isEmbedded() {
    return dataDir != null;
  }

  /** The same place with another session timeout. */
  public ZkConfig withSessionTimeout(Duration timeout) {
    return new ZkConfig(connectString, dataDir, embeddedPort, timeout, tick, tls);
  }

  /** The same place over TLS as {@code tls} says (null: plain TCP). */
  public ZkConfig withTls(ZkTls tls) {
    return new ZkConfig(connectString, dataDir, embeddedPort, sessionTimeout, tick, tls);
  }

  /** The fast setting: 2 s sessions, 500 ms tick (see the class comment for its cost). */
  public ZkConfig fast() {
    return new ZkConfig(connectString, dataDir, embeddedPort, FAST_SESSION_TIMEOUT, FAST_TICK, tls);
  }

  /** This config pointing at a running server (the embedded one's address once started). */
  public ZkConfig connectedTo(String address) {
    return new ZkConfig(address, null, 0, sessionTimeout, tick, tls);
  }

  int sessionTimeoutMillis() {
    return (int) sessionTimeout.toMillis();
  }

  String requireConnectString() {
    if (connectString == null) {
      throw new IllegalStateException("zk: embedded; start an EmbeddedZooKeeperServer and use connectedTo(its address)");
    }
    ZkProcessSecurity.apply(tls);
    ZkPreflight.check(connectString, tls);
    return connectString;
  }
}
