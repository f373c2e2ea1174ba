package io.gridway.relay.publish;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameEncoder;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.buffer.WindowTooLargeException;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a fetcher's transactions to the event buffer: registers each new schema (with its encoded
 * SCHEMA frame) before the first window that uses it, then encodes the window's EVENT frames and
 * END_OF_WINDOW frame straight into the buffer's off-heap memory (no intermediate copy) and publishes
 * it atomically. The buffer evicts rather than blocks, so {@link #accept} never waits for readers.
 *
 * <p>Called from the fetcher's thread only ({@link TransactionSink}'s contract); the state getters
 * are safe from any thread.
 */
public final class Publisher implements TransactionSink {
  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);

  private final String sourceId;
  private final EventBuffer buffer;
  private final SchemaRegistry schemas;
  private final FrameEncoder encoder = new FrameEncoder();

  private volatile SourcePosition position;
  private volatile long lastCommitTimeMicros;
  private volatile FetcherException failure;

  public Publisher(String sourceId, EventBuffer buffer, SchemaRegistry schemas) {
    this.sourceId = sourceId;
    this.buffer = buffer;
    this.schemas = schemas;
  }

  @Override
  public void accept(Transaction transaction) {
    for (ChangeEvent event : transaction.events()) {
      if (!schemas.contains(event.schemaId())) {
        register(event.schema());
      }
    }
    try {
      buffer.append(transaction.scn().value(), out -> encoder.writeTransaction(transaction, out));
    } catch (WindowTooLargeException | IllegalArgumentException e) {
      FetcherException fatal = new FetcherException("source " + sourceId + ": cannot publish transaction "
          + transaction.scn() + ": " + e.getMessage(), e);
      failed(fatal);
      throw fatal;
    }
    position = transaction.position();
    lastCommitTimeMicros = transaction.commitTimeMicros();
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
    buffer.advanceProcessed(heartbeat.scn().value());
    lastCommitTimeMicros = Math.max(lastCommitTimeMicros, heartbeat.timeMicros());
  }

  @Override
  public void failed(FetcherException error) {
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

  /** Why publishing stopped, or null while it runs. */
  public FetcherException failure() {
    return failure;
  }
}
