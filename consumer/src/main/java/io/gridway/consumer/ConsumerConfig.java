package io.gridway.consumer;

import io.gridway.core.config.ByteSize;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

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
 * @param where the relay's subscription filter, sent as {@code where=} on every request (a predicate over each row, in
 *     the policy language; rows it rejects never leave the relay), or null for every row. The relay checks it: the
 *     consumer service sends it once at start so that a bad expression fails there, with the relay's reason
 * @param start where a partition the group has never checkpointed begins (docs/bootstrap.md §5): {@code earliest}
 *     (the default: everything the relay holds, since=0), {@code latest} (the relay's newest SCN: changes from now on;
 *     a group created after a relay restart starts instead of looping on 410), {@code snapshot}, {@code scn:N} or
 *     {@code time:T} (the first transaction committed at or after the ISO-8601 instant T, found by the relay in its
 *     buffer: a 410 when T is at or before the oldest commit it holds); a stored checkpoint always wins
 * @param tls how to check the relays' certificates and which client certificate to show ({@code https://} relays);
 *     with it, a plain {@code http://} relay is refused
 * @param auth the bearer token sent to the relays, or null
 * @param snapshot the tables {@code start: snapshot} and {@code onEvicted: snapshot} load, or null (with either of them:
 *     every table the relay's fetcher captures, default chunk sizes)
 * @param onEvicted what a partition does when every relay replica has evicted the windows after its checkpoint
 *     (docs/bootstrap.md §5.2): {@code snapshot} re-seeds it (the stream moves to the relay's newest SCN and the
 *     {@code snapshot.tables} are loaded again), {@code stop} fails the partition with one ERROR line. Default:
 *     {@code snapshot} when the config has a {@code snapshot} section (either pull mode), else {@code stop} — eviction
 *     never heals by waiting
 */
public record ConsumerConfig(
    String source,
    String group,
    List<URI> relays,
    List<Integer> partitions,
    Pull pull,
    Batching batch,
    MicroBatch microBatch,
    Retry retry,
    Discovery discovery,
    String where,
    String start,
    Tls tls,
    Auth auth,
    Snapshot snapshot,
    String onEvicted) {

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
      if (relay == null || !("http".equals(relay.getScheme()) || "https".equals(relay.getScheme()))
          || relay.getHost() == null) {
        throw new IllegalArgumentException("relays: '" + relay + "' is not an http://host:port or https://host:port URL");
      }
      if (tls != null && !"https".equals(relay.getScheme())) {
        throw new IllegalArgumentException("relays: '" + relay + "' is plain http, and tls is set: a consumer configured "
            + "for TLS reads only https:// relays");
      }
      if (tls == null && "https".equals(relay.getScheme())) {
        throw new IllegalArgumentException("relays: '" + relay + "' is https: set tls (at least tls.caFile, the CA that "
            + "signed the relay's certificate)");
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
    batch = batch == null ? new Batching(null, null, null, null) : batch;
    microBatch = microBatch == null ? new MicroBatch(null, null, null) : microBatch;
    retry = retry == null ? new Retry(null, null, null, null) : retry;
    if (where != null && where.isBlank()) {
      throw new IllegalArgumentException("where: must not be empty (omit it to receive every row)");
    }
    start = start == null ? "earliest" : start;
    if (!start.equals("earliest") && !start.equals("latest") && !start.equals("snapshot") && !start.startsWith("scn:")
        && !start.startsWith("time:")) {
      throw new IllegalArgumentException("start: must be earliest, latest, snapshot, scn:N or time:T, not '" + start + "'");
    }
    if (start.startsWith("time:")) {
      try {
        Instant.parse(start.substring(5).trim());
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException("start: time:T needs an ISO-8601 instant such as time:2026-11-26T08:15:00Z "
            + "(UTC, or with an offset: time:2026-11-26T09:15:00+01:00), not '" + start + "'");
      }
    }
    if (snapshot == null && (start.equals("snapshot") || "snapshot".equals(onEvicted))) {
      snapshot = new Snapshot(null, null, null); // every table the relay's fetcher captures, default chunk sizes
    }
    onEvicted = onEvicted == null ? (snapshot != null ? "snapshot" : "stop") : onEvicted;
    if (!onEvicted.equals("snapshot") && !onEvicted.equals("stop")) {
      throw new IllegalArgumentException("onEvicted: must be snapshot or stop, not '" + onEvicted + "'");
    }
    if (snapshot != null && snapshot.readAhead() > 1
        && snapshot.readAhead() * snapshot.chunkBytes().bytes() > pull.bufferBytes().bytes()) {
      throw new IllegalArgumentException("snapshot.readAhead: " + snapshot.readAhead() + " chunks of snapshot.chunkBytes "
          + snapshot.chunkBytes() + " wait in the partition buffer, which pull.bufferBytes makes " + pull.bufferBytes()
          + ": lower readAhead or chunkBytes, or raise pull.bufferBytes");
    }
    if (start.startsWith("scn:")) {
      try {
        Long.parseUnsignedLong(start.substring(4));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("start: scn:N needs an unsigned decimal SCN, not '" + start + "'");
      }
    }
  }

  /** A config without TLS or a token, whose start is not {@code snapshot}. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batching batch,
      MicroBatch microBatch, Retry retry, Discovery discovery, String where, String start) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, discovery, where, start, null, null);
  }

  /** A config whose start is not {@code snapshot}. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batching batch,
      MicroBatch microBatch, Retry retry, Discovery discovery, String where, String start, Tls tls, Auth auth) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, discovery, where, start, tls, auth, null);
  }

  /** A config with the default {@code onEvicted}. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batching batch,
      MicroBatch microBatch, Retry retry, Discovery discovery, String where, String start, Tls tls, Auth auth,
      Snapshot snapshot) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, discovery, where, start, tls, auth, snapshot,
        null);
  }

  /** Whether a partition whose checkpoint every relay evicted loads its tables again ({@code onEvicted: snapshot}). */
  public boolean reseedsOnEviction() {
    return onEvicted.equals("snapshot");
  }

  /** Whether partitions without a checkpoint load the existing rows of {@link #snapshot} tables first. */
  public boolean startsWithSnapshot() {
    return start.equals("snapshot");
  }

  /**
   * What {@code start: snapshot} loads (docs/bootstrap.md §5), chunk by chunk from the relay's snapshot endpoint.
   *
   * @param tables the source tables ({@code db.table}), loaded in this order; empty (or absent): every table the
   *     relay's fetcher captures (its include/exclude), as the relay names them at the consumer's start, sorted
   * @param chunkRows rows per chunk asked of the relay (default 2,000; 1..20,000)
   * @param chunkBytes bytes per chunk asked of the relay (default 4MiB; at most 64MiB); a chunk is asked only when
   *     the partition buffer has this much room, which bounds the consumer's memory
   * @param readAhead chunks of a partition that may be read before the earlier ones are applied and their cursor is
   *     durable (default 2; 1..8): with 2 the relay reads the next chunk while the target applies the last one. A
   *     kill -9 repeats at most this many chunks per partition. Bounded in bytes: {@code readAhead × chunkBytes} must
   *     fit {@code pull.bufferBytes}, where the chunks wait
   * @param maxBytesPerSecond the load's rate limit over every partition this consumer process leads, in chunk bytes
   *     received per second (absent or 0: unlimited); the relay's {@code snapshot.readers} and
   *     {@code chunksPerSecond} still cap every group's chunks together
   */
  public record Snapshot(List<String> tables, Integer chunkRows, ByteSize chunkBytes, Integer readAhead,
      ByteSize maxBytesPerSecond) {
    /** A load of {@code tables} in chunks of the given sizes, one chunk ahead, unthrottled. */
    public Snapshot(List<String> tables, Integer chunkRows, ByteSize chunkBytes) {
      this(tables, chunkRows, chunkBytes, null, null);
    }

    /** The same knobs for another list of tables (the relay's, or an operator's request). */
    public Snapshot withTables(List<String> list) {
      return new Snapshot(list, chunkRows, chunkBytes, readAhead, maxBytesPerSecond);
    }

    /** Whether the load is rate-limited ({@code maxBytesPerSecond}). */
    public boolean throttled() {
      return maxBytesPerSecond.bytes() > 0;
    }

    public Snapshot {
      tables = tables == null ? List.of() : List.copyOf(tables);
      for (String t : tables) {
        if (t == null || t.indexOf('.') <= 0 || t.indexOf('.') == t.length() - 1) {
          throw new IllegalArgumentException("snapshot.tables: '" + t + "' is not db.table");
        }
      }
      if (tables.stream().distinct().count() != tables.size()) {
        throw new IllegalArgumentException("snapshot.tables: a table is listed twice in " + tables);
      }
      chunkRows = chunkRows == null ? 2000 : chunkRows;
      if (chunkRows < 1 || chunkRows > 20_000) {
        throw new IllegalArgumentException("snapshot.chunkRows: 1..20000, not " + chunkRows);
      }
      chunkBytes = chunkBytes == null ? ByteSize.ofMebibytes(4) : chunkBytes;
      if (chunkBytes.bytes() < 1 || chunkBytes.bytes() > 64L << 20) {
        throw new IllegalArgumentException("snapshot.chunkBytes: 1B..64MiB, not " + chunkBytes);
      }
      readAhead = readAhead == null ? 2 : readAhead;
      if (readAhead < 1 || readAhead > 8) {
        throw new IllegalArgumentException("snapshot.readAhead: 1..8 chunks per partition, not " + readAhead);
      }
      maxBytesPerSecond = maxBytesPerSecond == null ? new ByteSize(0) : maxBytesPerSecond;
      if (maxBytesPerSecond.bytes() < 0) {
        throw new IllegalArgumentException("snapshot.maxBytesPerSecond: 0 (unlimited) or more, not " + maxBytesPerSecond);
      }
    }
  }

  /** Whether a partition without a checkpoint starts at the relay's newest SCN ({@code start: latest}). */
  public boolean startsLatest() {
    return start.equals("latest");
  }

  /**
   * What a partition without a checkpoint asks the relay for ({@code since=}) until the first answer gives it a position:
   * {@code latest} ({@code start: latest}), {@code time:T} with T in UTC ({@code start: time:T}: the SCN before the first
   * window committed at or after T, resolved by the relay in its buffer), or null when the start is an SCN.
   */
  public String startOpening() {
    if (start.equals("latest")) {
      return "latest";
    }
    return start.startsWith("time:") ? "time:" + Instant.parse(start.substring(5).trim()) : null;
  }

  /** The SCN a partition without a checkpoint starts after: N for {@code scn:N}, else 0. */
  public long startScn() {
    return start.startsWith("scn:") ? Long.parseUnsignedLong(start.substring(4)) : 0;
  }

  /** A config with the default start ({@code earliest}), without TLS or a token. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batching batch,
      MicroBatch microBatch, Retry retry, Discovery discovery, String where) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, discovery, where, null, null, null);
  }

  /** A config without a subscription filter. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batching batch,
      MicroBatch microBatch, Retry retry, Discovery discovery) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, discovery, null);
  }

  /** A standalone config: fixed relays, no discovery. */
  public ConsumerConfig(String source, String group, List<URI> relays, List<Integer> partitions, Pull pull, Batching batch,
      MicroBatch microBatch, Retry retry) {
    this(source, group, relays, partitions, pull, batch, microBatch, retry, null, null);
  }

  /**
   * A builder for a config from Java: only what differs from the defaults needs saying.
   *
   * <pre>{@code
   * ConsumerConfig config = ConsumerConfig.builder("orders").relay("http://relay1:8080").partitions(0, 1, 2)
   *     .mode(ConsumerConfig.Mode.STREAM).compression(ConsumerConfig.Compression.LZ4).microBatches(4).build();
   * }</pre>
   */
  public static Builder builder(String source) {
    return new Builder(source);
  }

  public boolean isDiscovering() {
    return discovery != null;
  }

  public ConsumerConfig withGroup(String newGroup) {
    return new ConsumerConfig(source, newGroup, relays, partitions, pull, batch, microBatch, retry, discovery, where, start,
        tls, auth, snapshot, onEvicted);
  }

  public ConsumerConfig withPartitions(List<Integer> newPartitions) {
    return new ConsumerConfig(source, group, relays, newPartitions, pull, batch, microBatch, retry, discovery, where, start,
        tls, auth, snapshot, onEvicted);
  }

  /** The same config speaking TLS to its relays and sending a token (either may be null). */
  public ConsumerConfig withSecurity(Tls newTls, Auth newAuth) {
    return new ConsumerConfig(source, group, relays, partitions, pull, batch, microBatch, retry, discovery, where, start,
        newTls, newAuth, snapshot, onEvicted);
  }

  /**
   * TLS to the relays (TLS 1.3 and 1.2). The relay's certificate must chain to {@code caFile} and name the host of
   * its URL (a certificate for another name is refused). Files are read when the consumer starts.
   *
   * @param caFile PEM certificates of the CAs trusted to sign relay certificates; null for the JDK's default trust
   *     store (a public CA)
   * @param certFile PEM client certificate chain, for relays that require mutual TLS, or null
   * @param keyFile PEM private key (PKCS#8, not encrypted) of {@code certFile}
   */
  public record Tls(String caFile, String certFile, String keyFile) {
    public Tls {
      if ((certFile == null) != (keyFile == null)) {
        throw new IllegalArgumentException("tls: " + (certFile == null ? "certFile" : "keyFile") + " is required with "
            + (certFile == null ? "keyFile" : "certFile"));
      }
    }
  }

  /**
   * The bearer token sent as {@code Authorization: Bearer …} to the relays; exactly one of the two. Read when the
   * consumer starts; never part of the config itself.
   *
   * @param tokenFile a file holding the token (trailing newline ignored)
   * @param tokenEnv an environment variable holding the token
   */
  public record Auth(String tokenFile, String tokenEnv) {
    public Auth {
      io.gridway.core.config.SecretFile.requireOne(tokenFile, tokenEnv, "auth", "tokenFile", "tokenEnv");
    }
  }

  /**
   * Relay discovery (DESIGN §6): the relays serving each partition are read from the Helix external view of
   * resource {@code relay.<source>}, through a spectator; relays added or removed are followed live, and a partition
   * fails over between the relays serving it.
   *
   * @param zk the ZooKeeper connect string ({@code host:port[,host:port...]})
   * @param cluster the Helix cluster's name
   * @param sessionTimeout the spectator's ZooKeeper session timeout (default 6s, as everywhere in the cluster)
   * @param zkTls TLS to ZooKeeper with a client certificate (docs/security.md); null: plain TCP
   */
  public record Discovery(String zk, String cluster,
      Duration sessionTimeout, ZkTls zkTls) {
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
      if (zkTls != null) {
        for (java.nio.file.Path file : new java.nio.file.Path[] {zkTls.caFile(), zkTls.keyStoreFile()}) {
          if (file != null && !java.nio.file.Files.isReadable(file)) {
            throw new IllegalArgumentException("discovery.zkTls: cannot read " + file + "; check the path and its permissions");
          }
        }
      }
    }

    public Discovery(String zk, String cluster, Duration sessionTimeout) {
      this(zk, cluster, sessionTimeout, null);
    }

    /**
     * TLS to ZooKeeper: the cluster module's {@code ZkTls} (this library has no ZooKeeper client to take it from).
     *
     * @param caFile PEM CA certificates the servers' certificates chain to
     * @param keyStoreFile PEM: this process's private key, then its certificate chain (null: no client certificate)
     */
    public record ZkTls(java.nio.file.Path caFile, java.nio.file.Path keyStoreFile) {
      public ZkTls {
        java.util.Objects.requireNonNull(caFile, "discovery.zkTls.caFile");
      }
    }
  }

  /** The HTTP transfer mode. */
  public enum Mode {
    /** One request per batch of windows: returns when windows exist, or a heartbeat after {@code wait}. */
    LONG_POLL,
    /** One never-ending response per partition; the relay pushes windows and heartbeats. */
    STREAM
  }

  /** What a request's Accept-Encoding asks the relay for. */
  public enum Compression {
    NONE,
    GZIP,
    ZSTD,
    LZ4
  }

  /** How a batch is split into micro-batches (DESIGN §5); each keeps the order of its own rows. */
  public enum MicroPartitioner {
    /** By a hash of the primary key: each key's changes stay in one lane, in order (the default). */
    KEY_HASH,
    /** Events dealt round-robin: no order between lanes at all (for targets that need none). */
    EVENT_ROUND_ROBIN,
    /** Whole transactions dealt round-robin. */
    TRANSACTION_ROUND_ROBIN,
    /** By the value of one column (a tenant id): {@link MicroBatch#column()}. */
    COLUMN_VALUE
  }

  /**
   * Fetching.
   *
   * @param mode {@code long-poll} (default) or {@code stream}
   * @param compression what the request's Accept-Encoding asks for (default none)
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
      Compression compression,
      ByteSize bufferBytes,
      ByteSize maxBytes,
      Duration waitTime,
      Duration connectTimeout,
      Duration idleTimeout,
      Duration backoff) {
    public Pull {
      mode = mode == null ? Mode.LONG_POLL : mode;
      compression = compression == null ? Compression.NONE : compression;
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
  public record Batching(Integer maxEvents, ByteSize maxBytes, Duration maxWait, Integer maxInFlight) {
    public Batching {
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
   * @param partitioner how the batch is split (default key-hash)
   * @param column the column of {@code column-value}
   */
  public record MicroBatch(Integer count, MicroPartitioner partitioner, String column) {
    public MicroBatch {
      count = count == null ? 1 : count;
      if (count < 1 || count > 256) {
        throw new IllegalArgumentException("microBatch.count: " + count + " out of range 1..256");
      }
      partitioner = partitioner == null ? MicroPartitioner.KEY_HASH : partitioner;
      if (partitioner == MicroPartitioner.COLUMN_VALUE && (column == null || column.isBlank())) {
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

  /**
   * Builds a {@link ConsumerConfig}; every setting has the default its record documents. Not thread-safe; {@link
   * #build} may be called more than once.
   */
  public static final class Builder {
    private final String source;
    private String start;
    private Snapshot snapshot;
    private String onEvicted;
    private String group;
    private final List<URI> relays = new ArrayList<>();
    private List<Integer> partitions;
    private Discovery discovery;
    private Mode mode;
    private Compression compression;
    private ByteSize bufferBytes;
    private ByteSize maxResponseBytes;
    private Duration waitTime;
    private Duration connectTimeout;
    private Duration idleTimeout;
    private Duration reconnectBackoff;
    private Integer batchMaxEvents;
    private ByteSize batchMaxBytes;
    private Duration batchMaxWait;
    private Integer maxInFlight;
    private Integer microBatches;
    private MicroPartitioner microPartitioner;
    private String microPartitionColumn;
    private Integer maxAttempts;
    private Duration retryBackoff;
    private Duration maxRetryBackoff;
    private String where;
    private Tls tls;
    private Auth auth;

    private Builder(String source) {
      this.source = source;
    }

    /** The consumer group, the key of its checkpoints (default {@code default}). */
    public Builder group(String name) {
      this.group = name;
      return this;
    }

    /** Adds a relay replica, {@code http://host:port}; replicas are tried in the order added. */
    public Builder relay(String url) {
      this.relays.add(URI.create(url));
      return this;
    }

    /** Adds relay replicas, tried in order. */
    public Builder relays(List<URI> urls) {
      this.relays.addAll(urls);
      return this;
    }

    /** The partitions {@link GridwayConsumer#start()} starts. */
    public Builder partitions(int... numbers) {
      this.partitions = Arrays.stream(numbers).boxed().toList();
      return this;
    }

    /** Finds the relays in a Helix cluster instead (the consumer service supplies the cluster view). */
    public Builder discovery(Discovery cluster) {
      this.discovery = cluster;
      return this;
    }

    /** Long-poll (default) or stream. */
    public Builder mode(Mode transfer) {
      this.mode = transfer;
      return this;
    }

    /** What the relay is asked to compress responses with (default none). */
    public Builder compression(Compression coding) {
      this.compression = coding;
      return this;
    }

    /** Per partition, the bytes of windows received and not yet committed (default 32 MiB). */
    public Builder bufferBytes(long bytes) {
      this.bufferBytes = new ByteSize(bytes);
      return this;
    }

    /** A long-poll response's size limit (default 4 MiB). */
    public Builder maxResponseBytes(long bytes) {
      this.maxResponseBytes = new ByteSize(bytes);
      return this;
    }

    /** How long the relay holds a long-poll open, and a stream's heartbeat interval (default 5 s). */
    public Builder waitTime(Duration wait) {
      this.waitTime = wait;
      return this;
    }

    /** TCP connect timeout (default 2 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /** No byte for this long means the relay is gone (default wait time + 10 s). */
    public Builder idleTimeout(Duration timeout) {
      this.idleTimeout = timeout;
      return this;
    }

    /** The first reconnect delay; it doubles with jitter up to 20 times this (default 100 ms). */
    public Builder reconnectBackoff(Duration delay) {
      this.reconnectBackoff = delay;
      return this;
    }

    /** Events per batch (default 4096). */
    public Builder batchMaxEvents(int events) {
      this.batchMaxEvents = events;
      return this;
    }

    /** Frame bytes per batch (default 8 MiB). */
    public Builder batchMaxBytes(long bytes) {
      this.batchMaxBytes = new ByteSize(bytes);
      return this;
    }

    /** How long a non-empty batch waits for more windows (default 20 ms). */
    public Builder batchMaxWait(Duration wait) {
      this.batchMaxWait = wait;
      return this;
    }

    /** Batches built and not yet committed, per partition (default 4). */
    public Builder maxInFlight(int batches) {
      this.maxInFlight = batches;
      return this;
    }

    /** K: each batch is split into this many micro-batches applied in parallel (default 1). */
    public Builder microBatches(int count) {
      this.microBatches = count;
      return this;
    }

    /** How batches are split (default key hash); {@code column} only for {@link MicroPartitioner#COLUMN_VALUE}. */
    public Builder microPartitioner(MicroPartitioner kind, String column) {
      this.microPartitioner = kind;
      this.microPartitionColumn = column;
      return this;
    }

    /** Handler failures: attempts per batch and the backoff between them (defaults 5, 200 ms, 10 s). */
    public Builder retry(int attempts, Duration backoff, Duration maxBackoff) {
      this.maxAttempts = attempts;
      this.retryBackoff = backoff;
      this.maxRetryBackoff = maxBackoff;
      return this;
    }

    /** The relay's subscription filter ({@code where=}): only rows it accepts are sent (default every row). */
    public Builder where(String predicate) {
      this.where = predicate;
      return this;
    }

    /** Where partitions without a checkpoint begin: {@code earliest} (default), {@code latest}, {@code snapshot}, {@code scn:N} or {@code time:T}. */
    public Builder start(String position) {
      this.start = position;
      return this;
    }

    /** The tables {@code start: snapshot} loads, and its chunk sizes. */
    public Builder snapshot(Snapshot tables) {
      this.snapshot = tables;
      return this;
    }

    /** What a partition whose checkpoint every relay evicted does: {@code snapshot} or {@code stop}. */
    public Builder onEvicted(String action) {
      this.onEvicted = action;
      return this;
    }

    /** TLS to the relays (their URLs must be https://). */
    public Builder tls(Tls settings) {
      this.tls = settings;
      return this;
    }

    /** The bearer token for relays that require one. */
    public Builder auth(Auth token) {
      this.auth = token;
      return this;
    }

    /**
     * The config.
     *
     * @throws IllegalArgumentException naming the setting (as its YAML key) that cannot be used
     */
    public ConsumerConfig build() {
      return new ConsumerConfig(source, group, relays, partitions,
          new Pull(mode, compression, bufferBytes, maxResponseBytes, waitTime, connectTimeout, idleTimeout, reconnectBackoff),
          new Batching(batchMaxEvents, batchMaxBytes, batchMaxWait, maxInFlight),
          new MicroBatch(microBatches, microPartitioner, microPartitionColumn),
          new Retry(maxAttempts, retryBackoff, maxRetryBackoff), discovery, where, start, tls, auth, snapshot,
          onEvicted);
    }
  }
}
