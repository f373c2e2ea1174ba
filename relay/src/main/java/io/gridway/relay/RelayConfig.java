package io.gridway.relay;

import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.buffer.BufferConfig;
import io.gridway.relay.cluster.RelayClusterConfig;
import io.gridway.relay.http.HttpConfig;
import io.gridway.relay.policy.PolicyConfig;
import io.gridway.relay.snapshot.SnapshotConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A relay's whole configuration (one YAML file; see {@code relay/README.md}).
 *
 * @param source what to read
 * @param buffer the event buffer
 * @param http the HTTP API
 * @param policy fetch policy file(s), optional
 * @param positionFile where the relay persists its fetch position (and replay checkpoints); optional:
 *     without it a restarted relay starts from the source's configured start again
 * @param positionFlush how often, at most, the position file is rewritten; default 200ms
 * @param replay on restart, refill the buffer from a position about this long before the last one
 *     persisted, so that readers slightly behind do not get 410; default 0 (resume just after it)
 * @param cluster cluster mode (DESIGN §6), optional: the relay joins a Helix cluster, advertises its endpoint to
 *     consumers and keeps its position in ZooKeeper (and in {@code positionFile} too, if given)
 * @param startTimeout how long a starting relay retries peers it cannot reach yet (ZooKeeper in cluster mode),
 *     with backoff, before it gives up with exit code 1 (systemd restarts it); default 2m. The source database is
 *     not a start condition: the fetcher retries it for as long as the relay runs.
 * @param snapshot the cap over every group's snapshot chunk requests (readers, chunk sizes, chunks per second)
 */
public record RelayConfig(
    SourceConfig source,
    BufferConfig buffer,
    HttpConfig http,
    PolicyConfig policy,
    String positionFile,
    Duration positionFlush,
    Duration replay,
    RelayClusterConfig cluster,
    Duration startTimeout,
    SnapshotConfig snapshot) {
  public RelayConfig {
    snapshot = snapshot == null ? SnapshotConfig.defaults() : snapshot;
    if (source == null) {
      throw new IllegalArgumentException("source is required");
    }
    buffer = buffer == null ? BufferConfig.defaults() : buffer;
    http = http == null ? HttpConfig.defaults() : http;
    policy = policy == null ? PolicyConfig.none() : policy;
    positionFlush = positionFlush == null ? Duration.ofMillis(200) : positionFlush;
    if (positionFlush.isNegative() || positionFlush.toMillis() > 60_000) {
      throw new IllegalArgumentException("positionFlush must be 0..60s, not " + positionFlush);
    }
    replay = replay == null ? Duration.ZERO : replay;
    if (replay.isNegative()) {
      throw new IllegalArgumentException("replay cannot be negative");
    }
    startTimeout = startTimeout == null ? Duration.ofMinutes(2) : startTimeout;
    if (startTimeout.isNegative() || startTimeout.toHours() > 24) {
      throw new IllegalArgumentException("startTimeout must be 0..24h, not " + startTimeout);
    }
    if (cluster != null && cluster.endpoint() != null && !cluster.endpoint().startsWith(http.scheme() + "://")) {
      throw new IllegalArgumentException("cluster.endpoint: '" + cluster.endpoint() + "' must be an " + http.scheme()
          + ":// URL: the HTTP API " + (http.tls() == null ? "has no http.tls" : "serves TLS (http.tls)"));
    }
    if (!replay.isZero() && positionFile == null && cluster == null) {
      throw new IllegalArgumentException("replay needs a positionFile or cluster (they keep the replay checkpoints)");
    }
  }

  /** Loads and validates a YAML file; a {@link io.gridway.core.config.ConfigException} names file, line, key and reason. */
  public static RelayConfig load(Path file) {
    return ConfigLoader.load(file, RelayConfig.class);
  }

  /** Parses YAML text ({@code origin} names it in errors). */
  public static RelayConfig parse(String yaml, String origin) {
    return ConfigLoader.parse(yaml, origin, RelayConfig.class);
  }
}
