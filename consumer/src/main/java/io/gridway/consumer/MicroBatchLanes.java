package io.gridway.consumer;

import io.gridway.core.checkpoint.CheckpointFencedException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The K apply lanes of one partition: lane m applies micro-partition m's parts one at a time, in SCN
 * order, each on its own thread, so different micro-partitions apply in parallel while each keeps its
 * order. A lane whose part failed for good runs nothing more (its later parts must not apply before the
 * failed one); the other lanes finish what they hold.
 *
 * <p>The one place a failed part is retried: the handler classifies the failure ({@link BatchHandler#classify}),
 * and the part is retried with one backoff — up to {@code retry.maxAttempts} for {@code RETRY}, for up to
 * {@code retry.outage} by the consumer's clock for {@code UNAVAILABLE} (attempts not counted), never for
 * {@code FATAL}. A failure for good is stored in the {@link Committer}, which rethrows it to the dispatcher,
 * and reported with the batch's SCN range.
 *
 * <p>Thread-safe: {@link #submit} is called by the dispatcher thread only.
 */
final class MicroBatchLanes {
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchLanes.class);

  private final ExecutorService[] lanes;
  private final BatchHandler handler;
  private final ConsumerConfig.Retry retry;
  private final Backoff backoff;
  private final java.time.Clock clock;
  private final Committer committer;
  private final PartitionMetrics metrics;
  private final PartitionState state;
  private volatile boolean failed;

  MicroBatchLanes(int count, String threadPrefix, ThreadFactory threads, ApplySetup setup, Committer committer,
      PartitionMetrics metrics, PartitionState state) {
    this.lanes = new ExecutorService[count];
    for (int m = 0; m < count; m++) {
      lanes[m] = Executors.newSingleThreadExecutor(named(threads, threadPrefix + "-apply-" + m));
    }
    this.handler = setup.handler();
    this.retry = setup.retry();
    this.backoff = new Backoff(retry.backoff(), retry.maxBackoff(), setup.random()::nextDouble);
    this.clock = setup.clock();
    this.committer = committer;
    this.metrics = metrics;
    this.state = state;
  }

  /** The handler and the retry policy of a partition's lanes; the clock times an outage. */
  record ApplySetup(BatchHandler handler, ConsumerConfig.Retry retry, java.util.Random random, java.time.Clock clock) {
    ApplySetup(BatchHandler handler, ConsumerConfig.Retry retry, java.util.Random random) {
      this(handler, retry, random, java.time.Clock.systemUTC());
    }
  }

  /** Names the lane's thread; the application's factory (virtual threads, its own group) makes it when given. */
  private static ThreadFactory named(ThreadFactory threads, String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      String threadName = n.getAndIncrement() == 0 ? name : name + "-" + n.get();
      if (threads != null) {
        Thread t = threads.newThread(r);
        t.setName(threadName);
        return t;
      }
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    };
  }

  int count() {
    return lanes.length;
  }

  /** Queues micro-partition m's part of a registered batch on lane m. */
  void submit(int m, InFlightBatch entry, Batch part) {
    lanes[m].execute(() -> applyWithRetry(m, entry, part));
  }

  private void applyWithRetry(int m, InFlightBatch entry, Batch part) {
    int attempts = 0; // failures that count against retry.maxAttempts
    int failures = 0; // every failure: the backoff grows with them
    java.time.Instant outageSince = null;
    while (true) {
      if (failed || Thread.currentThread().isInterrupted()) {
        return; // a part after a failed one in this lane, or an abandoning stop: never applied, never counted
      }
      long start = System.nanoTime();
      try {
        handler.apply(part);
        metrics.applied(System.nanoTime() - start);
        committer.partDone(entry, m);
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // stop() abandons the part; it will be pulled again after a restart
        return;
      } catch (Exception | LinkageError | AssertionError e) {
        failures++;
        // fenced: a newer owner claimed the partition, and retrying cannot change that; stop at once
        BatchHandler.Failure kind = e instanceof CheckpointFencedException ? BatchHandler.Failure.FATAL : handler.classify(e);
        if (e instanceof CheckpointFencedException) {
          metrics.fenced(); // the target refused the checkpoint in the data's transaction: a fenced write too
        }
        String giveUp = null;
        boolean outageStarts = false;
        switch (kind) {
          case FATAL -> giveUp = "failed (not retriable)";
          case UNAVAILABLE -> {
            java.time.Instant now = clock.instant();
            outageStarts = outageSince == null;
            outageSince = outageStarts ? now : outageSince;
            if (!now.isBefore(outageSince.plus(retry.outage()))) {
              giveUp = "target unavailable for " + retry.outage() + " (retry.outage)";
            }
          }
          default -> {
            outageSince = null;
            if (++attempts >= retry.maxAttempts()) {
              giveUp = "failed " + attempts + " times";
            }
          }
        }
        if (giveUp != null) {
          failed = true;
          String detail = "batch " + part.firstScn() + ".." + part.lastScn()
              + (part.microPartition() >= 0 ? " micro-partition " + part.microPartition() : "")
              + " " + giveUp + ", last: " + e;
          LOG.error("partition {}: {}; the partition stops (checkpoint stays at {})", part.partition(), detail,
              committer.committedScn(), e);
          state.fail(detail, e);
          committer.fail(new BatchFailedException(detail, e));
          return;
        }
        metrics.retry();
        long delay = backoff.delayNanos(failures);
        if (kind == BatchHandler.Failure.UNAVAILABLE) {
          if (outageStarts) { // once per outage, not per attempt
            LOG.warn("partition {}: target unavailable ({}), retrying batch {}..{} for up to {}", part.partition(),
                e.toString(), part.firstScn(), part.lastScn(), retry.outage());
          }
          attempts = 0;
        } else {
          LOG.warn("partition {}: batch {}..{} attempt {} of {} failed ({}), retrying in {} ms", part.partition(),
              part.firstScn(), part.lastScn(), attempts, retry.maxAttempts(), e.toString(), delay / 1_000_000);
        }
        try {
          TimeUnit.NANOSECONDS.sleep(delay);
        } catch (InterruptedException stop) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Lets queued parts finish; does not wait. */
  void shutdown() {
    for (ExecutorService lane : lanes) {
      lane.shutdown();
    }
  }

  /** Interrupts the parts being applied and drops queued ones. */
  void abandon() {
    for (ExecutorService lane : lanes) {
      lane.shutdownNow();
    }
  }

  boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (ExecutorService lane : lanes) {
      if (!lane.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        return false;
      }
    }
    return true;
  }
}
