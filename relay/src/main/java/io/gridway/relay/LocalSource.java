package io.gridway.relay;

import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.policy.Policy;
import io.gridway.relay.http.ServedSource;
import io.gridway.relay.policy.ActivePolicies;
import io.gridway.relay.publish.Publisher;
import io.gridway.relay.publish.SchemaRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * One source served by this process: its fetcher, publisher, buffer and schemas, as the HTTP API
 * sees them. Thread-safe (every part is).
 */
final class LocalSource implements ServedSource {
  private final String id;
  private final int partitions;
  private final EventBuffer buffer;
  private final SchemaRegistry schemas;
  private final Publisher publisher;
  private final Fetcher fetcher;
  private final ActivePolicies policies;
  private final Clock clock;
  /** The last SCN stored before this start (0: none): until the buffer holds it again, the relay is refilling. */
  private final long refillThrough;
  private volatile boolean started;
  private final io.gridway.relay.snapshot.SnapshotService snapshots;

  LocalSource(SourceConfig config, EventBuffer buffer, SchemaRegistry schemas, Publisher publisher, Fetcher fetcher,
      ActivePolicies policies, io.gridway.relay.snapshot.SnapshotService.Limits snapshotLimits, Clock clock,
      long refillThrough) {
    this.id = config.id();
    this.partitions = config.partitions();
    this.buffer = buffer;
    this.schemas = schemas;
    this.publisher = publisher;
    this.fetcher = fetcher;
    this.policies = policies;
    this.clock = clock;
    this.refillThrough = refillThrough;
    io.gridway.core.snapshot.SnapshotReader reader = fetcher.snapshots();
    this.snapshots = reader == null ? null : new io.gridway.relay.snapshot.SnapshotService(id, reader, publisher,
        snapshotLimits, clock);
    if (snapshots != null && config.settings() instanceof io.gridway.fetcher.mysql.MysqlFetcherConfig mysql
        && mysql.scn() == io.gridway.fetcher.mysql.MysqlFetcherConfig.ScnMode.FILE) {
      // an idle source's 64th chunk; under scn: gtid a new binlog file brings no new GTID, so no new H (docs/scn.md)
      snapshots.moveLogWith(new io.gridway.relay.snapshot.BinlogRotation(mysql));
    }
    if (snapshots != null && fetcher instanceof io.gridway.fetcher.mysql.MysqlBinlogFetcher mysql) {
      // the default of a consumer's snapshot.tables: what the fetcher captures and the fetch policies in force select
      snapshots.listTablesWith(() -> selected(mysql.capturedTables(), policies.current()));
    }
  }

  /**
   * The {@code db.table} names every policy's {@code include}/{@code exclude} selects: a table a policy leaves out has
   * no event published, so loading it would read every chunk and route nothing.
   */
  static List<String> selected(List<String> captured, List<Policy> policies) {
    return captured.stream().filter(name -> {
      int dot = name.indexOf('.');
      return policies.stream().allMatch(p -> p.selectsTable(name.substring(0, dot), name.substring(dot + 1)));
    }).toList();
  }

  @Override
  public io.gridway.relay.snapshot.SnapshotService snapshots() {
    return snapshots;
  }

  /** Stops the snapshot readers (the fetcher, which owns their connections, closes after). */
  void close() {
    if (snapshots != null) {
      snapshots.close();
    }
  }

  /** The fetcher and publisher run: readers may be served from now on (until then: 503 STARTING). */
  void started() {
    started = true;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public EventBuffer buffer() {
    return buffer;
  }

  @Override
  public SchemaRegistry schemas() {
    return schemas;
  }

  @Override
  public boolean servesPartition(int partition) {
    return partition >= 0 && partition < partitions;
  }

  @Override
  public List<Integer> partitions() {
    return IntStream.range(0, partitions).boxed().toList();
  }

  @Override
  public boolean ready() {
    FetcherStatus.State state = fetcher.status().state();
    // RECONNECTING is down: the relay cannot tell a blip from an outage, and /health must not say UP while the
    // source's port has nothing listening (readers still drain the buffer: that is the serving side).
    return publisher.failure() == null && state == FetcherStatus.State.RUNNING;
  }

  @Override
  public boolean halted() {
    return publisher.failure() != null || fetcher.status().state() == FetcherStatus.State.FAILED;
  }

  /**
   * STARTING until {@link #started} and, without a stored position, until the fetcher has said where it starts (the
   * buffer's floor: before it, which readers are behind is unknown); then REFILLING while the buffer has not yet got back to the SCN stored before
   * this start and the reader asks beyond what it holds (readers below it are served at once).
   */
  @Override
  public Unavailable notServing(long since) {
    if (!started) {
      return new Unavailable("STARTING", "the relay is starting: fetcher and publisher not yet running");
    }
    if (buffer.floorPending()) {
      String source = problem();
      return new Unavailable("STARTING", "the relay is starting: its fetcher has not yet found where it starts in the"
          + " source's log" + (source == null ? "" : " (source: " + source + ")"));
    }
    long processed = buffer.processedScn();
    if (refillThrough != 0 && Long.compareUnsigned(processed, refillThrough) < 0
        && Long.compareUnsigned(since, buffer.newestScn()) >= 0) {
      String source = problem();
      return new Unavailable("REFILLING", "refilling the buffer from the source after a restart: at SCN "
          + Long.toUnsignedString(processed) + " of " + Long.toUnsignedString(refillThrough)
          + (source == null ? "" : " (source: " + source + ")"));
    }
    return null;
  }

  @Override
  public String problem() {
    if (publisher.failure() != null) {
      return publisher.failure().getMessage();
    }
    FetcherStatus status = fetcher.status();
    return status.state() == FetcherStatus.State.RUNNING ? null : status.state() + ": " + status.detail();
  }

  @Override
  public Map<String, Object> status() {
    FetcherStatus status = fetcher.status();
    Map<String, Object> fetch = new LinkedHashMap<>();
    fetch.put("state", publisher.failure() != null ? FetcherStatus.State.FAILED.name() : status.state().name());
    fetch.put("position", publisher.position() == null ? null : publisher.position().toString());
    fetch.put("detail", publisher.failure() != null ? publisher.failure().getMessage() : status.detail());
    long commit = publisher.lastCommitTimeMicros();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("fetch", fetch);
    List<Map<String, Object>> policyList = new ArrayList<>();
    for (Policy p : policies.current()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("name", p.name());
      one.put("version", p.version());
      one.put("file", p.file());
      policyList.add(one);
    }
    json.put("policies", policyList);
    json.put("policyReloadError", policies.lastError());
    json.put("policyHistory", policies.history()); // which versions produced the events from which SCN on
    if (snapshots != null) {
      json.put("snapshots", snapshots.status()); // per table: rows read / estimated, chunks
    }
    json.put("lagMillis", commit == 0 ? null : Math.max(0, clock.millis() - TimeUnit.MICROSECONDS.toMillis(commit)));
    return json;
  }
}
