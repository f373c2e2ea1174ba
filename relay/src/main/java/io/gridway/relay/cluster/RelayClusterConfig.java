package io.gridway.relay.cluster;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.gridway.cluster.ZkConfig;
import io.gridway.cluster.ZkTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The {@code cluster:} section of a relay's YAML (DESIGN §6): the relay joins a Helix cluster as a participant of
 * resource {@code relay.<source>}, advertises its HTTP endpoint there for consumers to find, and keeps its fetch
 * position in ZooKeeper under its instance name.
 *
 * <pre>
 * cluster:
 *   zk: zk1:2181,zk2:2181   # the ensemble's connect string, or "embedded" (an in-process server, one machine)
 *   zkDataDir: /var/lib/gridway/zk   # embedded only: snapshots and logs
 *   zkPort: 2181            # embedded only (default 2181; 0 picks a free port)
 *   sessionTimeout: 6s      # how long a crashed relay stays listed (default 6s)
 *   name: gridway           # the Helix cluster
 *   instance: relay-vm1     # stable across restarts and VM replacements: the key of its position in ZooKeeper
 *   endpoint: http://vm1:8080   # advertised (default http://HTTP_HOST:BOUND_PORT)
 *   replicas: 2             # how many relays are configured for this source (default 2)
 *   zkTls: {caFile: /etc/gridway/tls/zk-ca.pem, keyStoreFile: /etc/gridway/tls/relay-zk.pem}   # optional
 * </pre>
 *
 * @param zk a connect string, or {@code embedded}
 * @param zkDataDir the embedded server's directory (required with {@code embedded}, refused otherwise)
 * @param zkPort the embedded server's loopback port
 * @param sessionTimeout the ZooKeeper session timeout of the relay's Helix manager and position store
 * @param name the Helix cluster's name
 * @param instance this relay's Helix instance name
 * @param endpoint the advertised HTTP endpoint, or null for the bound address
 * @param replicas the replicas of {@code relay.<source>}'s partitions: the relays configured for the source
 * @param zkTls TLS to ZooKeeper with a client certificate (docs/security.md); null: plain TCP
 */
public record RelayClusterConfig(@JsonProperty(required = true) String zk, Path zkDataDir, Integer zkPort,
    Duration sessionTimeout, @JsonProperty(required = true) String name, @JsonProperty(required = true) String instance,
    String endpoint, Integer replicas, ZkTls zkTls) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}");
  private static final String EMBEDDED = "embedded";

  public RelayClusterConfig {
    if (zk == null || zk.isBlank()) {
      throw new IllegalArgumentException("cluster.zk: required, a connect string (host:port[,host:port...]) or 'embedded'");
    }
    boolean embedded = zk.equals(EMBEDDED);
    if (embedded && zkDataDir == null) {
      throw new IllegalArgumentException("cluster.zkDataDir: required with zk: embedded");
    }
    if (!embedded && (zkDataDir != null || zkPort != null)) {
      throw new IllegalArgumentException("cluster.zkDataDir/zkPort: only with zk: embedded, not with " + zk);
    }
    zkPort = zkPort == null ? 2181 : zkPort;
    sessionTimeout = sessionTimeout == null ? ZkConfig.DEFAULT_SESSION_TIMEOUT : sessionTimeout;
    requireName(name, "cluster.name");
    requireName(instance, "cluster.instance");
    if (endpoint != null && !endpoint.matches("https?://[^/:]+:\\d{1,5}")) {
      throw new IllegalArgumentException("cluster.endpoint: '" + endpoint + "' is not http://host:port or https://host:port");
    }
    replicas = replicas == null ? 2 : replicas;
    if (replicas < 1 || replicas > 100) {
      throw new IllegalArgumentException("cluster.replicas: 1..100, not " + replicas);
    }
    if (zkTls != null) {
      zkTls.requireReadable("cluster.zkTls");
    }
    try {
      zkConfig(zk, zkDataDir, zkPort, sessionTimeout);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cluster." + e.getMessage(), e);
    }
  }

  private static void requireName(String value, String key) {
    if (value == null || !NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(key + ": '" + value + "' must be 1-100 of [A-Za-z0-9_.-], starting alphanumeric");
    }
  }

  public RelayClusterConfig(String zk, Path zkDataDir, Integer zkPort, Duration sessionTimeout, String name,
      String instance, String endpoint, Integer replicas) {
    this(zk, zkDataDir, zkPort, sessionTimeout, name, instance, endpoint, replicas, null);
  }

  public boolean isEmbedded() {
    return zk.equals(EMBEDDED);
  }

  /**
   * The cluster module's view. An embedded server ticks at most every 2 s and at least four times per session
   * (sessions may last 2..20 ticks), so short test sessions work too.
   */
  public ZkConfig zkConfig() {
    return zkConfig(zk, zkDataDir, zkPort, sessionTimeout).withTls(zkTls);
  }

  private static ZkConfig zkConfig(String zk, Path zkDataDir, int zkPort, Duration sessionTimeout) {
    if (!zk.equals(EMBEDDED)) {
      return ZkConfig.external(zk).withSessionTimeout(sessionTimeout);
    }
    Duration tick = sessionTimeout.dividedBy(4).compareTo(ZkConfig.DEFAULT_TICK) < 0 ? sessionTimeout.dividedBy(4)
        : ZkConfig.DEFAULT_TICK;
    return new ZkConfig(null, zkDataDir, zkPort, sessionTimeout, tick);
  }
}
