package io.gridway.consumer;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.gridway.core.config.ByteSize;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Everything a consumer needs besides its handler and checkpoint store. Immutable; every key is
 * validated in the compact constructor and a bad value is reported with its key. Optional keys are
 * boxed: null means "absent, use the default".
 *
 * @param source the relay source id to pull ({@code /v1/sources/{source}/events})
 * @param group the consumer group name, the key of its checkpoints
 * @param relays the relay replicas serving the source, tried in order; failover moves to the next (standalone
 *     mode; give this or {@code discovery})
 * @param partitions the partitions a standalone consumer starts with (Helix drives them in cluster mode)
 * @param pull how windows are fetched and buffered
 * @param batch how windows are grouped into batches
 * @param microBatch how a batch is split for parallel apply
 * @param retry what happens when the handler throws
 * @param discovery find the relays in a Helix cluster instead of a fixed {@code relays} list, following them live
 */
public record ConsumerConfig(
    @JsonProperty(required = true) String source,
    String group,
    List<URI> relays,
    List<Integer> partitions,
    Pull pull,
    Batch batch,
    MicroBatch microBatch,
    Retry retry,
    Discovery discovery) {

  public ConsumerConfig {
    if (source == null || source.isBlank()) {
      throw new IllegalArgumentException("source: required, the relay source id");
    }
    group = group == null ? "default" : group;
    if (group.isBlank()) {
      throw new IllegalArgumentException("group: must not be empty");
    }
    relays = relays == null ? List.of() : relays;
    if (relays.isEmpty() == (discovery == null)) {
      throw new IllegalArgumentException(discovery == null ? "relays: at least one relay URL is required (or discovery)"
          : "relays: not with discovery (the relays are found in the cluster)");
    }
    for (URI relay : relays) {
      if (relay == null || !"http".equals(relay.getScheme()) || relay.getHost() == null) {
        throw new IllegalArgumentException("relays: '" + relay + "' is not an http://host:port URL");
      }
    }
    relays = List.copyOf(relays);
    partitions = partitions == null ? List.of() : List.copyOf(partitions);
    for (int p : partitions) {
      if (p < 0 || p > 0xFFFF) {
        throw new IllegalArgumentException("partitions: " + p + " out of range 0..65535");
      }
    }
    if (partitions.stream().distinct().count() != partitions.size()) {
      throw new IllegalArgumentException("partitions: listed twice in " + partitions);
    }
    pull = pull == null ? new Pull(null, null, null, null, null, null, null, null) : pull;
    batch = batch == null ? new Batch(null, null, null, null) : batch;
    microBatch = microBatch == null ? new MicroBatch(null, null, null) : microBatch;
    retry = retry == null ? new Retry(null, null, null, null) : retry;
  }

  /** A standalone config: fixed relays, no discovery. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batch batch,
      MicroBatch microBatch, Retry retry) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, null);
  }

  /** A config with defaults for everything but the essentials. */
  public static ConsumerConfig of(String source, List<URI> relays) {
    return new ConsumerConfig(source, null, relays, null, null, null, null, null);
  }

  /** A config that finds the relays of {@code source} in a Helix cluster, with defaults for the rest. */
  public static ConsumerConfig discovering(String source, Discovery discovery) {
    return new ConsumerConfig(source, null, null, null, null, null, null, null, discovery);
  }

  public boolean isDiscovering() {
    return discovery != null;
  }

  public ConsumerConfig withGroup(String newGroup) {
    return new ConsumerConfig(source, newGroup, relays, partitions, pull, batch, microBatch, retry, discovery);
  }

  public ConsumerConfig withPartitions(List<Integer> newPartitions) {
    return new ConsumerConfig(source, group, relays, newPartitions, pull, batch, microBatch, retry, discovery);
  }

  public ConsumerConfig withPull(Pull newPull) {
    return new ConsumerConfig(source, group, relays, partitions, newPull, batch, microBatch, retry, discovery);
  }

  public ConsumerConfig withBatch(Batch newBatch) {
    return new ConsumerConfig(source, group, relays, partitions, pull, newBatch, microBatch, retry, discovery);
  }

  public ConsumerConfig withMicroBatch(MicroBatch newMicroBatch) {
    return new ConsumerConfig(source, group, relays, partitions, pull, batch, newMicroBatch, retry, discovery);
  }

  public ConsumerConfig withRetry(Retry newRetry) {
    return new ConsumerConfig(source, group, relays, partitions, pull, batch, microBatch, newRetry, discovery);
  }

  /**
   * Relay discovery (DESIGN §6): the relays serving each partition are read from the Helix external view of
   * resource {@code relay.<source>}, through a spectator; relays added or removed are followed live, and a partition
   * fails over between the relays serving it.
   *
   * @param zk the ZooKeeper connect string ({@code host:port[,host:port...]})
   * @param cluster the Helix cluster's name
   * @param sessionTimeout the spectator's ZooKeeper session timeout (default 6s, as everywhere in the cluster)
   */
  public record Discovery(@JsonProperty(required = true) String zk, @JsonProperty(required = true) String cluster,
      Duration sessionTimeout) {
    /** The cluster module's ZkConfig default; this library has no ZooKeeper client to take it from. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(6);

    public Discovery {
      if (zk == null || zk.isBlank()) {
        throw new IllegalArgumentException("discovery.zk: required, the ZooKeeper connect string (host:port[,host:port...])");
      }
      if (cluster == null || !cluster.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
        throw new IllegalArgumentException("discovery.cluster: '" + cluster
            + "' must be 1-100 of [A-Za-z0-9_.-], starting alphanumeric");
      }
      sessionTimeout = sessionTimeout == null ? DEFAULT_SESSION_TIMEOUT : sessionTimeout;
      if (sessionTimeout.toMillis() < 1000) {
        throw new IllegalArgumentException("discovery.sessionTimeout: at least 1s, not " + sessionTimeout);
      }
    }
  }

  /** The HTTP transfer mode. */
  public enum Mode {
    /** One request per batch of windows: returns when windows exist, or a heartbeat after {@code wait}. */
    LONG_POLL,
    /** One never-ending response per partition; the relay pushes windows and heartbeats. */
    STREAM;

    @com.fasterxml.jackson.annotation.JsonCreator
    static Mode parse(String text) {
      return switch (text.toLowerCase(Locale.ROOT)) {
        case "long-poll", "long_poll", "longpoll" -> LONG_POLL;
        case "stream" -> STREAM;
        default -> throw new IllegalArgumentException("'" + text + "' is not one of long-poll, stream");
      };
    }
  }

  /**
   * Fetching.
   *
   * @param mode {@code long-poll} (default) or {@code stream}
   * @param compression {@code none} (default), {@code gzip}, {@code zstd} or {@code lz4}: what the
   *     request's Accept-Encoding asks for
   * @param bufferBytes per partition: windows received and not yet committed, in bytes (default 32MiB).
   *     The puller stops reading from the socket when it is full. One window larger than this is still
   *     admitted, alone.
   * @param maxBytes a long-poll response's size limit, sent as {@code maxBytes} (default 4MiB)
   * @param waitTime how long the relay holds a long-poll request open before a heartbeat, and the heartbeat
   *     interval of a stream (default 5s; sent as {@code waitMs})
   * @param connectTimeout TCP connect timeout (default 2s)
   * @param idleTimeout no byte for this long means the relay is gone (default waitTime + 10s)
   * @param backoff the first reconnect delay; it doubles with jitter up to 20 times this (default 100ms)
   */
  public record Pull(
      Mode mode,
      String compression,
      ByteSize bufferBytes,
      ByteSize maxBytes,
      Duration waitTime,
      Duration connectTimeout,
      Duration idleTimeout,
      Duration backoff) {
    public Pull {
      mode = mode == null ? Mode.LONG_POLL : mode;
      compression = compression == null ? "none" : compression.toLowerCase(Locale.ROOT);
      if (!List.of("none", "gzip", "zstd", "lz4").contains(compression)) {
        throw new IllegalArgumentException("pull.compression: '" + compression + "' is not one of none, gzip, zstd, lz4");
      }
      bufferBytes = bufferBytes == null ? ByteSize.ofMebibytes(32) : bufferBytes;
      positive(bufferBytes.bytes(), "pull.bufferBytes");
      maxBytes = maxBytes == null ? ByteSize.ofMebibytes(4) : maxBytes;
      positive(maxBytes.bytes(), "pull.maxBytes");
      waitTime = waitTime == null ? Duration.ofSeconds(5) : waitTime;
      nonNegative(waitTime, "pull.waitTime");
      connectTimeout = connectTimeout == null ? Duration.ofSeconds(2) : connectTimeout;
      positive(connectTimeout, "pull.connectTimeout");
      idleTimeout = idleTimeout == null ? waitTime.plusSeconds(10) : idleTimeout;
      positive(idleTimeout, "pull.idleTimeout");
      if (idleTimeout.compareTo(waitTime) <= 0) {
        throw new IllegalArgumentException("pull.idleTimeout: " + idleTimeout + " must exceed pull.waitTime " + waitTime);
      }
      backoff = backoff == null ? Duration.ofMillis(100) : backoff;
      positive(backoff, "pull.backoff");
    }
  }

  /**
   * Transaction batching: a batch closes at whichever limit it reaches first.
   *
   * @param maxEvents events per batch (default 4096); a single larger window still goes whole
   * @param maxBytes frame bytes per batch (default 8MiB); a single larger window still goes whole
   * @param maxWait how long a non-empty batch waits for more windows (default 20ms)
   * @param maxInFlight batches built and not yet committed, per partition (default 4)
   */
  public record Batch(Integer maxEvents, ByteSize maxBytes, Duration maxWait, Integer maxInFlight) {
    public Batch {
      maxEvents = maxEvents == null ? 4096 : maxEvents;
      positive(maxEvents, "batch.maxEvents");
      maxBytes = maxBytes == null ? ByteSize.ofMebibytes(8) : maxBytes;
      positive(maxBytes.bytes(), "batch.maxBytes");
      maxWait = maxWait == null ? Duration.ofMillis(20) : maxWait;
      nonNegative(maxWait, "batch.maxWait");
      maxInFlight = maxInFlight == null ? 4 : maxInFlight;
      positive(maxInFlight, "batch.maxInFlight");
    }
  }

  /**
   * Micro-batching: each batch is split into {@code count} micro-batches applied in parallel.
   *
   * @param count K, the number of micro-partitions (default 1: no split)
   * @param partitioner {@code key-hash} (default), {@code event-round-robin}, {@code
   *     transaction-round-robin} or {@code column-value}
   * @param column the column of {@code column-value}
   */
  public record MicroBatch(Integer count, String partitioner, String column) {
    public MicroBatch {
      count = count == null ? 1 : count;
      if (count < 1 || count > 256) {
        throw new IllegalArgumentException("microBatch.count: " + count + " out of range 1..256");
      }
      partitioner = partitioner == null ? "key-hash" : partitioner.toLowerCase(Locale.ROOT);
      if (!List.of("key-hash", "event-round-robin", "transaction-round-robin", "column-value").contains(partitioner)) {
        throw new IllegalArgumentException("microBatch.partitioner: '" + partitioner
            + "' is not one of key-hash, event-round-robin, transaction-round-robin, column-value");
      }
      if (partitioner.equals("column-value") && (column == null || column.isBlank())) {
        throw new IllegalArgumentException("microBatch.column: required by the column-value partitioner");
      }
    }
  }

  /**
   * Handler failures: a batch whose handler throws is retried with exponential backoff (with jitter);
   * after {@code maxAttempts} the partition stops in the FAILED state with the SCN and the reason.
   *
   * @param maxAttempts attempts per batch, the first included (default 5)
   * @param backoff the first retry delay (default 200ms)
   * @param maxBackoff the longest retry delay (default 10s)
   */
  /**
   * @param maxAttempts attempts of a batch whose failure may pass on its own (default 5)
   * @param backoff the first delay between attempts (default 200 ms), doubling with jitter
   * @param maxBackoff the longest delay (default 10 s)
   * @param outage how long a batch keeps being retried while its target is unavailable (default 5 min)
   */
  public record Retry(Integer maxAttempts, Duration backoff, Duration maxBackoff, Duration outage) {
    public Retry(Integer maxAttempts, Duration backoff, Duration maxBackoff) {
      this(maxAttempts, backoff, maxBackoff, null);
    }

    public Retry {
      outage = outage == null ? Duration.ofMinutes(5) : outage;
      nonNegative(outage, "retry.outage");
      maxAttempts = maxAttempts == null ? 5 : maxAttempts;
      positive(maxAttempts, "retry.maxAttempts");
      backoff = backoff == null ? Duration.ofMillis(200) : backoff;
      nonNegative(backoff, "retry.backoff");
      maxBackoff = maxBackoff == null ? Duration.ofSeconds(10) : maxBackoff;
      nonNegative(maxBackoff, "retry.maxBackoff");
      if (maxBackoff.compareTo(backoff) < 0) {
        throw new IllegalArgumentException("retry.maxBackoff: " + maxBackoff + " is shorter than retry.backoff " + backoff);
      }
    }
  }

  private static void positive(long value, String key) {
    if (value <= 0) {
      throw new IllegalArgumentException(key + ": must be positive, was " + value);
    }
  }

  private static void positive(Duration value, String key) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(key + ": must be positive, was " + value);
    }
  }

  private static void nonNegative(Duration value, String key) {
    if (value.isNegative()) {
      throw new IllegalArgumentException(key + ": must not be negative, was " + value);
    }
  }
}
