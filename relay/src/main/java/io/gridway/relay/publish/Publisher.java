package io.gridway.relay.publish;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.policy.FetchPolicy;
import io.gridway.policy.KeyRouting;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyLoader;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.buffer.WindowTooLargeException;
import io.gridway.relay.policy.ActivePolicies;
import io.gridway.relay.position.PositionRecorder;
import io.gridway.relay.snapshot.SnapshotService;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a fetcher's transactions to the event buffer: registers each new schema (with its encoded
 * SCHEMA frame) before the first window that uses it, then encodes the window's EVENT frames and
 * END_OF_WINDOW frame straight into the buffer's off-heap memory (no intermediate copy) and publishes
 * it atomically. The buffer evicts rather than blocks, so {@link #accept} never waits for readers.
 *
 * <p>Before encoding, the fetch policies in force (without policy files: the built-in primary-key hash
 * over {@code source.partitions}, see policy-engine's README, "Routing of every event kind"), read once per transaction, so a reloaded policy
 * applies from a window boundary, filter, transform and partition the transaction; a transaction they
 * drop entirely still advances the buffer's processed SCN, so heartbeats carry the progress. After a
 * window is in the buffer its position goes to the {@link PositionRecorder}, and so does a heartbeat's
 * that advances the processed SCN (with the position the fetcher gave it). A transaction whose SCN
 * is not above the newest one processed is skipped: after a restart the fetcher re-reads from the
 * last persisted position, and SCNs are deterministic, so this is exactly what was stored before.
 *
 * <p>A buffer built before its fetcher found where it starts (no stored position) takes its floor from the first
 * thing the fetcher delivers: a heartbeat's SCN (a fetcher says where it starts this way, see {@link
 * TransactionSink}), else just below the first transaction's SCN. That heartbeat's position is stored too, so a
 * relay stopped before its first window resumes where this one started instead of at a later configured start.
 *
 * <p>A window larger than the buffer's {@code maxWindow} stops the source (FAILED, /health 503 with
 * the reason) rather than being split or dropped; nothing after it is published, so a restart with a
 * larger limit resumes with it.
 *
 * <p>Called from one thread only: the relay's publisher thread, which drains the {@link PublishQueue} the fetcher
 * hands its transactions to (in tests and tools without a queue, whichever single thread feeds it). The state
 * getters are safe from any thread.
 */
public final class Publisher implements TransactionSink, SnapshotService.Routing {
  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);

  private final String sourceId;
  private final EventBuffer buffer;
  private final SchemaRegistry schemas;
  private final FrameEncoder encoder = new FrameEncoder();

  private final ActivePolicies policies;
  private final int partitions;
  private final FetchPolicy defaultRouting; // without policy files; null for one partition (nothing to route)
  private final PositionRecorder positions;

  private volatile SourcePosition position;
  private volatile long lastCommitTimeMicros;
  private volatile FetcherException failure;
  private volatile long windowsTooLarge;
  private volatile long skippedOnResume;
  private volatile long droppedByPolicy;

  public Publisher(String sourceId, EventBuffer buffer, SchemaRegistry schemas) {
    this(sourceId, buffer, schemas, ActivePolicies.none(), null);
  }

  /** One partition; {@code positions} may be null (no position file). */
  public Publisher(String sourceId, EventBuffer buffer, SchemaRegistry schemas, ActivePolicies policies, PositionRecorder positions) {
    this(sourceId, buffer, schemas, policies, positions, 1, false);
  }

  /**
   * {@code partitions} is {@code source.partitions}: TRUNCATE and DDL are copied to each of them under any
   * policy, and with {@code routeByDefault}, without policy files, every change is routed by the built-in
   * primary-key hash over them ({@link PolicyLoader#keyHashDefault}). {@code positions} may be null.
   */
  public Publisher(String sourceId, EventBuffer buffer, SchemaRegistry schemas, ActivePolicies policies, PositionRecorder positions,
      int partitions, boolean routeByDefault) {
    this.sourceId = sourceId;
    this.buffer = buffer;
    this.schemas = schemas;
    this.policies = policies;
    this.positions = positions;
    this.partitions = partitions;
    this.defaultRouting = partitions == 1 || !routeByDefault ? null : PolicyLoader.keyHashDefault(partitions).fetch();
  }

  @Override
  public void accept(Transaction received) {
    if (failure != null) {
      throw failure; // stopped: never publish past a window that could not be stored
    }
    long scn = received.scn().value();
    if (scn != 0 && buffer.startAfter(scn - 1)) {
      // The fetcher did not say where it started: only that no SCN lies between scn - 1 and this transaction.
      floorSet(scn - 1, "just below its first transaction");
    }
    if (Long.compareUnsigned(scn, buffer.processedScn()) <= 0) {
      skippedOnResume++; // publisher thread only
      return;
    }
    Transaction transaction = filtered(received);
    if (transaction == null) {
      droppedByPolicy++;
      buffer.advanceProcessed(scn);
      stored(received);
      return;
    }
    for (ChangeEvent event : transaction.events()) {
      if (!schemas.contains(event.schemaId())) {
        register(event.schema());
      }
    }
    try {
      buffer.append(transaction.scn().value(), out -> encoder.writeTransaction(transaction, out));
    } catch (WindowTooLargeException e) {
      windowsTooLarge++;
      FetcherException fatal = new FetcherException("source " + sourceId + ": transaction " + transaction.scn() + " ("
          + transaction.size() + " events) is larger than buffer.maxWindow (" + buffer.maxWindowBytes()
          + " bytes); raise buffer.maxWindow (and capacity) and restart the relay: it resumes with this transaction", e);
      stop(fatal);
      throw fatal;
    } catch (IllegalArgumentException e) {
      FetcherException fatal = new FetcherException("source " + sourceId + ": cannot publish transaction "
          + transaction.scn() + ": " + e.getMessage(), e);
      stop(fatal);
      throw fatal;
    }
    stored(received);
  }

  /**
   * A snapshot chunk as the fetch policy in force routes it, without publishing it — its rows take the path of changes
   * (filter, transform, partition) — and how that same policy version routes the table's keys, which the chunk's
   * consumer checks target keys against (docs/bootstrap.md §5.3): one reading of the policies for both, so that a
   * reload in between cannot pair one version's rows with another's key rule. Throws what routing the rows throws; a
   * policy whose key rule cannot be stated for the table gives {@link KeyRouting.Unknown} (nothing deleted). Any thread.
   */
  @Override
  public SnapshotService.Routed route(Transaction chunk, TableSchema schema) {
    List<Policy> current = policies.current();
    Transaction window = chunk == null ? null : current.isEmpty()
        ? (defaultRouting == null ? chunk : defaultRouting.apply(chunk))
        : ActivePolicies.apply(current, chunk, partitions);
    KeyRouting keys;
    try {
      keys = current.isEmpty() ? FetchPolicy.keyRouting(defaultRouting == null ? List.of() : List.of(defaultRouting),
          schema) : ActivePolicies.keyRouting(current, schema, partitions);
    } catch (RuntimeException e) {
      keys = new KeyRouting.Unknown("the fetch policy does not fit " + schema.qualifiedName() + ": " + e.getMessage());
    }
    return new SnapshotService.Routed(window, keys);
  }

  private Transaction filtered(Transaction tx) {
    List<Policy> current = policies.forWindow(tx.scn().value()); // records from which SCN a new version applies
    try {
      if (current.isEmpty()) {
        return defaultRouting == null ? tx : defaultRouting.apply(tx);
      }
      return ActivePolicies.apply(current, tx, partitions);
    } catch (RuntimeException e) {
      FetcherException fatal = new FetcherException("source " + sourceId + ": the fetch policy cannot process transaction "
          + tx.scn() + ": " + e.getMessage() + "; correct the policy file (it is reloaded) and restart the relay", e);
      stop(fatal);
      throw fatal;
    }
  }

  private void stored(Transaction tx) {
    position = tx.position();
    lastCommitTimeMicros = tx.commitTimeMicros();
    if (positions != null) {
      positions.stored(tx.scn().value(), tx.position());
    }
  }

  private void register(TableSchema schema) {
    ByteBuffer frame = ByteBuffer.allocate(1024);
    while (true) {
      try {
        encoder.writeSchema(schema, frame);
        break;
      } catch (java.nio.BufferOverflowException e) {
        frame = ByteBuffer.allocate(frame.capacity() * 4);
      }
    }
    byte[] bytes = new byte[frame.position()];
    frame.flip().get(bytes);
    schemas.register(schema, bytes);
    LOG.info("source {}: schema {} of {} registered", sourceId, Long.toHexString(schema.id()), schema.qualifiedName());
  }

  @Override
  public void heartbeat(Heartbeat heartbeat) {
    long scn = heartbeat.scn().value();
    // A fetcher started at its configured start says first where that is, as a heartbeat (TransactionSink)
    boolean first = buffer.startAfter(scn);
    if (first) {
      floorSet(scn, "where its fetcher starts");
    }
    if (positions != null && heartbeat.position() != null
        && (first || Long.compareUnsigned(scn, buffer.processedScn()) > 0)) {
      positions.stored(scn, heartbeat.position()); // an idle (or filtered-out) source's position moves too
    }
    buffer.advanceProcessed(scn);
    lastCommitTimeMicros = Math.max(lastCommitTimeMicros, heartbeat.timeMicros());
  }

  private void floorSet(long scn, String how) {
    LOG.info("source {}: the buffer starts after SCN {} ({}): readers asking for an older SCN get 410", sourceId,
        Long.toUnsignedString(scn), how);
  }

  /** The fetcher stopped on an error an operator must fix; it logged the ERROR line, /health shows the text. */
  @Override
  public void failed(FetcherException error) {
    if (failure == null) {
      failure = error;
      LOG.warn("source {}: publishing stopped because the fetcher stopped (see its ERROR line and /health)", sourceId);
    }
  }

  /** Publishing itself cannot go on: one ERROR line with what to do (the same text /health shows). */
  private void stop(FetcherException error) {
    if (failure == null) {
      failure = error;
      LOG.error("source {}: fetching stopped: {}", sourceId, error.getMessage());
    }
  }

  /** The position of the last transaction published, or null before the first. */
  public SourcePosition position() {
    return position;
  }

  /** The commit time of the newest transaction published (or heartbeat), microseconds; 0 before any. */
  public long lastCommitTimeMicros() {
    return lastCommitTimeMicros;
  }

  /** Transactions that did not fit {@code buffer.maxWindow} (0 or 1: the first one stops the source). */
  public long windowsTooLarge() {
    return windowsTooLarge;
  }

  /** Transactions skipped because their SCN was already processed (re-read after a restart). */
  public long skippedOnResume() {
    return skippedOnResume;
  }

  /** Transactions the fetch policy dropped entirely. */
  public long droppedByPolicy() {
    return droppedByPolicy;
  }

  /** Why publishing stopped, or null while it runs. */
  public FetcherException failure() {
    return failure;
  }
}
