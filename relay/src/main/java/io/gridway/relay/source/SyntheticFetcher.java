package io.gridway.relay.source;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.core.fetch.TransactionSink;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Fetcher} of generated data (like Kafka's datagen): N tables, a row size, a pace and a
 * transaction size, deterministic from a seed (see {@link SyntheticGenerator} for the data and the
 * SCN mapping). It feeds the relay for tests, benchmarks and demos.
 *
 * <p>Runs on its own thread between {@link #start} and {@link #close}. Pacing parks the thread until
 * the next transaction is due by the injected {@link Clock}: a rate limit, not a poll. Thread-safe.
 */
public final class SyntheticFetcher implements Fetcher {
  private static final Logger LOG = LoggerFactory.getLogger(SyntheticFetcher.class);

  private final String sourceId;
  private final SyntheticConfig config;
  private final SyntheticGenerator generator;
  private final Clock clock;
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile FetcherStatus status = new FetcherStatus(FetcherStatus.State.STARTING, null, "not started");
  private Thread thread;

  public SyntheticFetcher(String sourceId, SyntheticConfig config, int partitions, Clock clock) {
    if (partitions < 1 || partitions > 65536) {
      throw new IllegalArgumentException("partitions must be 1..65536, not " + partitions);
    }
    this.sourceId = sourceId;
    this.config = config;
    this.generator = new SyntheticGenerator(sourceId, config, partitions);
    this.clock = clock;
  }

  @Override
  public synchronized void start(SourcePosition resumeAfter, TransactionSink sink) {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    long first;
    if (resumeAfter == null) {
      first = 1;
    } else if (resumeAfter instanceof SourcePosition.Generated generated) {
      first = generated.sequence() + 1;
    } else {
      throw new FetcherException("source " + sourceId + " is synthetic and cannot resume from " + resumeAfter);
    }
    thread = new Thread(() -> run(first, sink), "gridway-synthetic-" + sourceId);
    thread.setDaemon(true);
    thread.start();
  }

  private void run(long first, TransactionSink sink) {
    status = new FetcherStatus(FetcherStatus.State.RUNNING, null, "generating");
    LOG.info("source {}: synthetic generation from transaction {} ({})", sourceId, first, config);
    long startNanos = nowNanos();
    long events = 0;
    long sequence = first;
    try {
      // where the stream starts, before anything else: a relay without a stored position takes it as its buffer's floor
      sink.heartbeat(new Heartbeat(new Scn(first - 1), TimeUnit.NANOSECONDS.toMicros(startNanos),
          new SourcePosition.Generated(first - 1)));
      while (closed.getCount() > 0) {
        if (config.maxEvents() > 0 && events >= config.maxEvents()) {
          status = new FetcherStatus(FetcherStatus.State.RUNNING, status.position(), "generated " + events + " events; idle");
          LOG.info("source {}: generated {} events (maxEvents); idle", sourceId, events);
          closed.await();
          break;
        }
        if (config.eventsPerSecond() > 0) {
          long due = startNanos + (long) (events * 1e9 / config.eventsPerSecond());
          long wait = due - nowNanos();
          if (wait > 0 && closed.await(wait, TimeUnit.NANOSECONDS)) {
            break;
          }
        }
        var transaction = generator.transaction(sequence, TimeUnit.NANOSECONDS.toMicros(nowNanos()));
        sink.accept(transaction);
        status = new FetcherStatus(FetcherStatus.State.RUNNING, transaction.position(), "generating");
        events += transaction.size();
        sequence++;
      }
      status = new FetcherStatus(FetcherStatus.State.STOPPED, status.position(), "closed");
    } catch (InterruptedException e) {
      status = new FetcherStatus(FetcherStatus.State.STOPPED, status.position(), "interrupted");
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      FetcherException error = e instanceof FetcherException f ? f
          : new FetcherException("source " + sourceId + ": synthetic generation failed: " + e, e);
      status = new FetcherStatus(FetcherStatus.State.FAILED, status.position(), error.getMessage());
      LOG.error("relay source {}: fetcher stopped: {}", sourceId, error.getMessage());
      sink.failed(error);
    }
  }

  private long nowNanos() {
    Instant now = clock.instant();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  @Override
  public FetcherStatus status() {
    return status;
  }

  @Override
  public void close() {
    closed.countDown();
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t != null) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
