package io.gridway.admin;

import io.gridway.cluster.ZkConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How an admin service runs.
 *
 * @param zk where ZooKeeper is (a client config: an embedded server must already be started)
 * @param cluster the Helix cluster
 * @param controllerName this service's controller instance name (Helix elects one leader among all controllers)
 * @param host the address the HTTP server binds, {@code 127.0.0.1} unless the operator chose otherwise
 * @param port the HTTP port, 0 for any free one
 * @param stateDir where the users file, the first admin credential and the audit log live (created 0700)
 * @param sessionTtl how long a login lasts without activity
 * @param zkTimeout how long a request waits on ZooKeeper before it answers 503
 * @param sampleInterval how often the service samples every partition's progress for its 15-minute history
 *     (events/s, lag); default 10 s
 * @param consumerConfigs group → the consumer YAML file of that group, read (never written) for the target
 *     connection settings that listing its parked changes needs; the file's {@code passwordFile} (or environment
 *     variable) must be readable by the admin service's user. Empty: no parked rows shown
 * @param relays how to reach relays that serve TLS or require a bearer token ({@code relays} in admin.yaml, the shape
 *     of the consumer's {@code tls} and {@code auth}); default {@link Relays#NONE}: plain HTTP, no token
 */
public record AdminSettings(ZkConfig zk, String cluster, String controllerName, String host, int port, Path stateDir,
    Duration sessionTtl, Duration zkTimeout, Duration sampleInterval, java.util.Map<String, Path> consumerConfigs,
    Relays relays) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final Duration DEFAULT_SESSION_TTL = Duration.ofHours(8);
  public static final Duration DEFAULT_ZK_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(10);

  public AdminSettings {
    Objects.requireNonNull(zk, "zk");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(controllerName, "controllerName");
    Objects.requireNonNull(stateDir, "stateDir");
    host = host == null ? DEFAULT_HOST : host;
    sessionTtl = sessionTtl == null ? DEFAULT_SESSION_TTL : sessionTtl;
    zkTimeout = zkTimeout == null ? DEFAULT_ZK_TIMEOUT : zkTimeout;
    sampleInterval = sampleInterval == null ? DEFAULT_SAMPLE_INTERVAL : sampleInterval;
    consumerConfigs = consumerConfigs == null ? java.util.Map.of() : java.util.Map.copyOf(consumerConfigs);
    relays = relays == null ? Relays.NONE : relays;
    if (sampleInterval.toMillis() < 100 || sampleInterval.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("sampleInterval " + sampleInterval + " out of range 100ms..1m");
    }
    if (port < 0 || port > 0xFFFF) {
      throw new IllegalArgumentException("http.port " + port + " out of range 0..65535");
    }
  }

  /** Without relay TLS or token. */
  public AdminSettings(ZkConfig zk, String cluster, String controllerName, String host, int port, Path stateDir,
      Duration sessionTtl, Duration zkTimeout, Duration sampleInterval, java.util.Map<String, Path> consumerConfigs) {
    this(zk, cluster, controllerName, host, port, stateDir, sessionTtl, zkTimeout, sampleInterval, consumerConfigs, null);
  }

  /**
   * How the admin service's relay calls (the Relays page's probe, a reset's buffer range and commit-time lookup) reach
   * relays: the consumer's settings, under {@code relays} in admin.yaml (docs/security.md).
   *
   * @param tls the CA that signed the relays' certificates (and a client certificate for mutual TLS), or null: plain
   *     HTTP
   * @param auth where the bearer token is ({@code tokenFile} or {@code tokenEnv}), or null: no token
   */
  public record Relays(io.gridway.consumer.ConsumerConfig.Tls tls, io.gridway.consumer.ConsumerConfig.Auth auth) {
    public static final Relays NONE = new Relays(null, null);
  }

  /** With the default sample interval. */
  public AdminSettings(ZkConfig zk, String cluster, String controllerName, String host, int port, Path stateDir,
      Duration sessionTtl, Duration zkTimeout) {
    this(zk, cluster, controllerName, host, port, stateDir, sessionTtl, zkTimeout, null, null, null);
  }
}
