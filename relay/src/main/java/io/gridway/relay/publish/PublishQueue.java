package io.gridway.relay.publish;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Row;
import io.gridway.core.event.Transaction;
import io.gridway.core.event.Utf8Text;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decouples the fetcher's thread (reading and decoding the binlog) from the {@link Publisher}'s work
 * (policy, encoding, CRCs, copying into the buffer), so the two run on two cores instead of one after
 * the other. The fetcher's thread puts transactions and heartbeats into a bounded queue, in order; one
 * publisher thread takes them.
 *
 * <p>Bounds: at most {@code maxBytes} of transactions queued, by the fetcher's estimate of the heap
 * their values hold when it gives one, else by {@link #heldBytes}'s (a bigger transaction waits until the
 * queue is empty, then goes alone; the fetcher bounds one transaction itself), and at most 4,096 items. {@link #accept} blocks while full —
 * the back-pressure the fetcher SPI expects. A count of events bounded nothing: 16,384 rows of a 1 MB
 * TEXT are 16 GB. Failures travel back: once the publisher has failed (a window larger than
 * {@code maxWindow}, a policy that does not fit), every later {@link #accept} or {@link #heartbeat}
 * throws that {@link FetcherException}, so the fetcher stops as if it had published directly; whatever
 * was queued behind the failed transaction is discarded, never published out of order.
 *
 * <p>Thread-safety: {@link #accept}, {@link #heartbeat} and {@link #failed} from the fetcher's thread
 * only (the SPI's contract); {@link #close} from any thread, once.
 */
public final class PublishQueue implements TransactionSink, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PublishQueue.class);
  private static final Object STOP = new Object();
  private static final int DRAIN = 256;
  /** Permits are KiB: a Semaphore's int counts up to 2 TiB of them. */
  private static final int PERMIT_SHIFT = 10;

  private final Publisher publisher;
  private final int maxPermits;
  private final Semaphore held;
  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4096);
  private final Thread thread;

  /** @param maxBytes how much the queued transactions may hold (at least 1 KiB) */
  public PublishQueue(String sourceId, Publisher publisher, long maxBytes) {
    if (maxBytes < 1 << PERMIT_SHIFT || maxBytes >> PERMIT_SHIFT > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("maxBytes " + maxBytes + " out of range 1KiB..2TiB");
    }
    this.publisher = publisher;
    this.maxPermits = (int) (maxBytes >> PERMIT_SHIFT);
    this.held = new Semaphore(maxPermits);
    this.thread = new Thread(this::run, "gridway-publisher-" + sourceId);
    this.thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  @Override
  public void accept(Transaction transaction) throws InterruptedException {
    accept(transaction, heldBytes(transaction));
  }

  /** With the fetcher's own estimate (the binlog fetcher counts it as it decodes): no second pass over the values. */
  @Override
  public void accept(Transaction transaction, long heldBytes) throws InterruptedException {
    throwIfFailed();
    Queued queued = new Queued(transaction, (int) Math.min(maxPermits, Math.max(1, heldBytes >> PERMIT_SHIFT)));
    held.acquire(queued.permits());
    queue.put(queued);
  }

  @Override
  public void heartbeat(Heartbeat heartbeat) throws InterruptedException {
    throwIfFailed();
    queue.put(heartbeat);
  }

  /** Queued like a transaction, so that what the fetcher delivered before failing is still published. */
  @Override
  public void failed(FetcherException error) {
    boolean interrupted = false;
    while (true) {
      try {
        queue.put(new Failed(error));
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the failure must not be lost; keep the interrupt for the caller
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private record Failed(FetcherException error) {}

  /** A transaction with the permits it took (counted once, on the fetcher's thread). */
  private record Queued(Transaction transaction, int permits) {}

  private void throwIfFailed() {
    FetcherException failure = publisher.failure();
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * An estimate of the heap a transaction's events hold: their values' bytes (text as its UTF-8 or its
   * chars, binary values' length) plus a fixed overhead per event and per value. One pass over the values,
   * no allocation: for a fetcher that does not give its own estimate ({@link TransactionSink#accept(Transaction,
   * long)}).
   */
  static long heldBytes(Transaction transaction) {
    long bytes = 0;
    for (ChangeEvent event : transaction.events()) {
      bytes += 128 + heldBytes(event.before()) + heldBytes(event.after()) + (event.ddl() == null ? 0 : event.ddl().length());
    }
    return bytes;
  }

  private static long heldBytes(Row row) {
    if (row == null) {
      return 0;
    }
    long bytes = 0;
    for (int i = 0, n = row.size(); i < n; i++) {
      Object value = row.held(i);
      bytes += 16 + (value instanceof Utf8Text text ? text.byteLength()
          : value instanceof String string ? string.length()
          : value instanceof Bytes binary ? binary.length()
          : 16);
    }
    return bytes;
  }

  private void run() {
    List<Object> batch = new ArrayList<>(DRAIN);
    try {
      while (true) {
        batch.add(queue.take());
        queue.drainTo(batch, DRAIN - 1); // whatever else is queued, under one lock instead of one per item
        for (Object item : batch) {
          if (item == STOP) {
            return;
          }
          if (item instanceof Queued q) {
            held.release(q.permits());
            publish(q.transaction());
          } else if (item instanceof Failed f) {
            publisher.failed(f.error());
          } else if (publisher.failure() == null) {
            publisher.heartbeat((Heartbeat) item);
          }
        }
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // close() gave up waiting: end the thread
    }
  }

  private void publish(Transaction tx) {
    if (publisher.failure() != null) {
      return; // behind a failed window: discarded, the position file stays before it
    }
    try {
      publisher.accept(tx);
    } catch (FetcherException e) {
      // recorded by the publisher (failure()); the fetcher sees it at its next accept or heartbeat
    } catch (RuntimeException e) {
      publisher.failed(new FetcherException("publishing failed unexpectedly: " + e, e));
      LOG.error("publisher thread failed", e);
    }
  }

  /** Publishes what is queued (the fetcher must be closed first), then stops the thread. */
  @Override
  public void close() {
    if (!thread.isAlive()) {
      return;
    }
    try {
      queue.put(STOP);
      thread.join(10_000);
      if (thread.isAlive()) {
        thread.interrupt();
        thread.join(1_000);
      }
    } catch (InterruptedException e) {
      thread.interrupt();
      Thread.currentThread().interrupt();
    }
  }
}
