package io.gridway.consumer.service;

import io.gridway.consumer.ConsumerConfig;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.gridway.cluster.ZkConfig;
import io.gridway.cluster.ZkTls;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The consumer service's YAML file ({@code ConsumerMain --config consumer.yml}): the library's config plus
 * what the service wires around it.
 *
 * <pre>
 * consumer:            # ConsumerConfig: source, group, relays, partitions, pull, batch, microBatch, retry
 *   source: orders
 *   relays: [http://127.0.0.1:8080]   # or, to find the relays in a Helix cluster and follow them live:
 *   # discovery: {zk: zk1:2181, cluster: gridway}
 *   partitions: [0, 1, 2]
 *   start: snapshot    # partitions without a checkpoint: earliest (default), latest, scn:N, time:T or snapshot (docs/bootstrap.md)
 *   snapshot: {tables: [shop.orders, shop.lines], chunkRows: 2000, chunkBytes: 4MiB}   # what start: snapshot loads
 *   #   readAhead: 2, maxBytesPerSecond: 8MiB   # chunks read ahead per partition; this process's load rate limit
 * checkpoints:
 *   dir: /var/lib/gridway/checkpoints
 * applier:             # an installed applier's section (type: may name it too): null (default), logging, jdbc, ...
 *   jdbc: {url: jdbc:postgresql://db/warehouse, user: gridway, passwordFile: /run/secrets/pw}
 *   # logging: {output: events.jsonl}   # JSON lines; "-" (default) for standard output
 * cluster:             # optional: cluster mode (DESIGN §6); Helix assigns the partitions, not consumer.partitions
 *   zk: zk1:2181,zk2:2181  # the external ZooKeeper ensemble's connect string
 *   name: gridway      # the Helix cluster
 *   group: orders      # the consumer group (default consumer.group; if both are given they must agree)
 *   instance: host1_8090   # this process's Helix instance name, stable across restarts
 *   partitions: 6      # the group's partition count (created if missing, checked if not)
 *   replicas: 2        # leader + standbys per partition (default 2)
 *   endpoint: http://host1:8090   # advertised in the instance config (default http://&lt;instance&gt;)
 *   sessionTimeout: 6s # ZooKeeper session: how long a crashed consumer keeps its partitions (default 6s)
 * http:                # /health, /health/live, /health/ready and /metrics (Prometheus)
 *   host: 127.0.0.1    # default 127.0.0.1
 *   port: 8090         # default 8090; 0 picks a free port (tests)
 * startTimeout: 2m     # retry an unreachable relay, target or ZooKeeper this long at start, then exit 1 (default 2m)
 * </pre>
 *
 * @param consumer the library configuration
 * @param checkpoints where the file checkpoint store keeps its files (not with an applier that keeps checkpoints in
 *     its target, such as jdbc)
 * @param applier which applier, and its settings
 * @param cluster cluster mode, or null (standalone: the service starts {@code consumer.partitions} itself)
 * @param http where the health and metrics endpoints listen
 * @param startTimeout how long a starting service retries peers it cannot reach yet (the relays, the target database,
 *     ZooKeeper) before it gives up with exit code 1 (systemd restarts it); a configuration the operator must change
 *     exits 2 at once
 */
public record ServiceConfig(
    @JsonProperty(required = true) ConsumerConfig consumer,
    Checkpoints checkpoints,
    ApplierConfig applier,
    Cluster cluster,
    Http http,
    Duration startTimeout) {

  public ServiceConfig {
    if (consumer == null) {
      throw new IllegalArgumentException("consumer: required");
    }
    applier = applier == null ? ApplierConfig.NONE : applier;
    http = http == null ? new Http(null, null) : http;
    startTimeout = startTimeout == null ? Duration.ofMinutes(2) : startTimeout;
    if (startTimeout.isNegative() || startTimeout.toHours() > 24) {
      throw new IllegalArgumentException("startTimeout: 0..24h, not " + startTimeout);
    }
    boolean inTarget = applier.checkpointsInTarget();
    if (cluster != null) {
      // checkpoints in ZooKeeper (or, with an applier such as jdbc, in the target); partitions from Helix
      if (checkpoints != null) {
        throw new IllegalArgumentException("checkpoints: not with cluster (checkpoints are in ZooKeeper"
            + (inTarget ? " or the target)" : ")"));
      }
      if (!consumer.partitions().isEmpty()) {
        throw new IllegalArgumentException("consumer.partitions: not with cluster (Helix assigns them; give cluster.partitions)");
      }
      if (cluster.group() == null) {
        cluster = new Cluster(cluster.zk(), cluster.name(), consumer.group(), cluster.instance(), cluster.partitions(),
            cluster.replicas(), cluster.endpoint(), cluster.sessionTimeout(), cluster.zkTls());
      } else if (!consumer.group().equals(cluster.group())) {
        if (!consumer.group().equals("default")) {
          throw new IllegalArgumentException("cluster.group: '" + cluster.group() + "' differs from consumer.group '"
              + consumer.group() + "'");
        }
        consumer = consumer.withGroup(cluster.group());
      }
    } else {
      if (checkpoints == null && !inTarget) {
        throw new IllegalArgumentException("checkpoints: required (checkpoints.dir)");
      }
      if (consumer.partitions().isEmpty()) {
        throw new IllegalArgumentException("consumer.partitions: the service needs at least one partition");
      }
    }
  }

  /** Whether Helix drives the partitions ({@code cluster:} is set). */
  public boolean isClustered() {
    return cluster != null;
  }

  /**
   * Cluster mode: this service is a Helix participant of an external ZooKeeper ensemble and leads the
   * partitions of its consumer group that the controller gives it.
   *
   * @param zk the ensemble's connect string ({@code host:port[,host:port...]})
   * @param name the Helix cluster's name
   * @param group the consumer group (null: {@code consumer.group})
   * @param instance this process's instance name, stable across restarts
   * @param partitions the group's partition count
   * @param replicas leader plus standbys per partition (default 2)
   * @param endpoint the HTTP endpoint advertised in the instance config (default {@code http://<instance>})
   * @param sessionTimeout the ZooKeeper session timeout (default {@link ZkConfig#DEFAULT_SESSION_TIMEOUT}): a
   *     crashed consumer's partitions move after it; docs/cluster.md has the fast setting and its cost
   * @param zkTls TLS to ZooKeeper with a client certificate (docs/security.md); null: plain TCP
   */
  public record Cluster(@JsonProperty(required = true) String zk, @JsonProperty(required = true) String name, String group,
      @JsonProperty(required = true) String instance, @JsonProperty(required = true) Integer partitions, Integer replicas,
      String endpoint, Duration sessionTimeout, ZkTls zkTls) {
    public Cluster {
      if (zk == null || zk.isBlank()) {
        throw new IllegalArgumentException("cluster.zk: required, the ZooKeeper connect string (host:port[,host:port...])");
      }
      if (zk.strip().equals("embedded")) {
        // a consumer is killed and restarted as a normal event: it must not take the control plane with it
        throw new IllegalArgumentException("cluster.zk: 'embedded' is hosted by the controller (gridway controller with "
            + "zk.embedded); give its address here, e.g. 127.0.0.1:2181");
      }
      requireName(name, "cluster.name");
      if (group != null) {
        requireName(group, "cluster.group");
      }
      requireName(instance, "cluster.instance");
      if (partitions == null || partitions < 1 || partitions > 0x10000) {
        throw new IllegalArgumentException("cluster.partitions: required, 1..65536, not " + partitions);
      }
      replicas = replicas == null ? 2 : replicas;
      if (replicas < 1) {
        throw new IllegalArgumentException("cluster.replicas: at least 1, not " + replicas);
      }
      endpoint = endpoint == null ? "http://" + instance : endpoint;
      sessionTimeout = sessionTimeout == null ? ZkConfig.DEFAULT_SESSION_TIMEOUT : sessionTimeout;
      if (zkTls != null) {
        zkTls.requireReadable("cluster.zkTls");
      }
      try {
        zkConfig(zk, sessionTimeout);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("cluster.sessionTimeout: " + e.getMessage(), e);
      }
    }

    /** The cluster module's view of {@link #zk} and {@link #sessionTimeout}. */
    public ZkConfig zkConfig() {
      return zkConfig(zk, sessionTimeout).withTls(zkTls);
    }

    public Cluster(String zk, String name, String group, String instance, Integer partitions, Integer replicas,
        String endpoint, Duration sessionTimeout) {
      this(zk, name, group, instance, partitions, replicas, endpoint, sessionTimeout, null);
    }

    private static ZkConfig zkConfig(String zk, Duration sessionTimeout) {
      return ZkConfig.external(zk).withSessionTimeout(sessionTimeout);
    }

    private static void requireName(String value, String key) {
      if (value == null || !value.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
        throw new IllegalArgumentException(key + ": '" + value + "' must be 1-100 of [A-Za-z0-9_.-], starting alphanumeric");
      }
    }
  }

  /**
   * The health and metrics endpoints.
   *
   * @param host the address to bind (default 127.0.0.1: give 0.0.0.0 or a host's address for a remote scraper)
   * @param port the port (default 8090; 0 picks a free one, printed on the start-up line)
   */
  public record Http(String host, Integer port) {
    public static final int DEFAULT_PORT = 8090;

    public Http {
      host = host == null ? "127.0.0.1" : host;
      if (host.isBlank()) {
        throw new IllegalArgumentException("http.host: must not be empty");
      }
      port = port == null ? DEFAULT_PORT : port;
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("http.port: 0..65535, not " + port);
      }
    }
  }

  /** @param dir the file checkpoint store's directory */
  public record Checkpoints(@JsonProperty(required = true) Path dir) {
    public Checkpoints {
      if (dir == null) {
        throw new IllegalArgumentException("checkpoints.dir: required");
      }
    }
  }
}
