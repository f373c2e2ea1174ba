package io.gridway.perf;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The latency run's steady workload: {@code rate} single-row insert transactions per second for a
 * duration, each row stamped with its send time (epoch µs, column {@code sent_us}) by {@link Loader#bind}.
 * Transaction k is due at start + k / rate and goes to table k % tables; {@link #CONNECTIONS} writer
 * connections take the next transaction from one shared schedule as soon as they are free, so one slow
 * round trip delays only its own transaction, not every W-th one after it (issue 24 item 3: with four
 * connections each owning every fourth transaction the run reached 4,255 of 5,000 tx/s). A writer behind
 * schedule sends at once (it never skips), so a slow server shows as a lower achieved rate, which the
 * report prints with the mean round trip and the share of transactions sent late (README, Latency: 16
 * connections reached 4,893-4,983 tx/s at a load average of about 20, 32 connections 4,990-4,999). Ids start at
 * {@code firstId} so they never collide with the load's. One instance per run.
 */
final class PacedWriter {
  /**
   * Writer connections. At 5,000 tx/s each connection's round trip (insert + commit) may take up to
   * CONNECTIONS / 5,000 s = 6.4 ms; a loaded 2-core machine stretches a round trip well past the 0.8 ms
   * that four connections allowed. The server does not fsync (testkit's MariaDB), so more connections
   * cost it no extra flushes, only threads.
   */
  static final int CONNECTIONS = 32;

  /** Paced runs of at most this many transactions keep each one's round trip (4 bytes each) for {@link LatencyTrace}. */
  private static final long MAX_TRACED = 50_000_000;

  /** A transaction sent more than this after it was due counts as late. */
  private static final long LATE_NANOS = 1_000_000;

  /**
   * @param transactions transactions committed
   * @param seconds from the first due time to the last commit
   * @param roundTripMs mean time of one insert + commit as the writer saw it
   * @param lateShare share of the transactions sent more than 1 ms after they were due
   * @param commitMs p50, p95 and p99 of one insert + commit as the writer saw it (the source's share of the latency)
   * @param roundTripMicros transaction k's insert + commit in µs at index k (paced runs; null when unpaced)
   */
  record Written(long transactions, double seconds, double roundTripMs, double lateShare, Spread commitMs,
      int[] roundTripMicros) {
    double rate() {
      return transactions / seconds;
    }
  }

  /** Percentiles in milliseconds. */
  record Spread(double p50, double p95, double p99) {
    static Spread of(LatencyHistogram micros) {
      return new Spread(micros.percentile(0.50) / 1e3, micros.percentile(0.95) / 1e3, micros.percentile(0.99) / 1e3);
    }
  }

  private final SourceDb db;
  private final Workload workload;

  PacedWriter(SourceDb db, Workload workload) {
    this.db = db;
    this.workload = workload;
  }

  /** {@code rate} transactions per second until {@code rate × duration} are committed, however long that takes. */
  Written run(double rate, Duration duration, long firstId, Progress progress) throws SQLException, InterruptedException {
    long total = Math.max(1, (long) (rate * duration.toNanos() / 1e9));
    return execute(new Schedule(total, rate, System.nanoTime() + 200_000_000L, 0), firstId, progress);
  }

  /** As fast as the connections go, for {@code duration}: the source's limit for this workload, no grid reading. */
  Written unpaced(Duration duration, long firstId, Progress progress) throws SQLException, InterruptedException {
    long start = System.nanoTime() + 200_000_000L;
    return execute(new Schedule(Long.MAX_VALUE, Double.POSITIVE_INFINITY, start, start + duration.toNanos()), firstId, progress);
  }

  private Written execute(Schedule schedule, long firstId, Progress progress) throws SQLException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS); // every writer is connected by the schedule's start
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < CONNECTIONS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          write(writer, schedule, firstId, progress);
          return null;
        }));
      }
      for (Future<?> f : writers) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof SQLException sql) {
            throw sql;
          }
          throw new IllegalStateException("a paced writer failed", e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    long n = schedule.written.sum();
    LatencyHistogram commits = new LatencyHistogram();
    schedule.commits.forEach(commits::add);
    return new Written(n, (System.nanoTime() - schedule.start) / 1e9, n == 0 ? 0 : schedule.roundTrips.sum() / 1e6 / n,
        n == 0 ? 0 : (double) schedule.late.sum() / n, Spread.of(commits), schedule.roundTripMicros);
  }

  /** The shared schedule and what the writers measured. Thread-safe. */
  private static final class Schedule {
    final long total;
    final double rate;
    final long start;
    final long stop; // nanoTime after which no transaction is started; 0: none (paced runs write all of them)
    final int[] roundTripMicros; // per transaction, each index written by one writer (read after the writers' futures)
    final AtomicLong next = new AtomicLong();
    final LongAdder written = new LongAdder();
    final LongAdder roundTrips = new LongAdder();
    final LongAdder late = new LongAdder();
    final Queue<LatencyHistogram> commits = new ConcurrentLinkedQueue<>(); // one per writer, merged at the end

    Schedule(long total, double rate, long start, long stop) {
      this.total = total;
      this.rate = rate;
      this.start = start;
      this.stop = stop;
      this.roundTripMicros = stop == 0 && total <= MAX_TRACED ? new int[(int) total] : null;
    }

    long due(long k) {
      return start + (long) (k * 1e9 / rate); // an infinite rate: every transaction is due at the start
    }

    boolean open(long k) {
      return k < total && (stop == 0 || System.nanoTime() - stop < 0);
    }
  }

  private void write(int writer, Schedule schedule, long firstId, Progress progress) throws SQLException {
    SplittableRandom random = new SplittableRandom(31L * writer + 17);
    LatencyHistogram commits = new LatencyHistogram();
    schedule.commits.add(commits);
    int[] lengths = Loader.stringLengths(workload.recordSize());
    try (Connection c = db.connect()) {
      c.setAutoCommit(true); // one row, one transaction
      List<PreparedStatement> statements = new ArrayList<>();
      try {
        for (int t = 0; t < workload.tables(); t++) {
          statements.add(c.prepareStatement(Loader.statement(Workload.tableName(t), false)));
        }
        for (long k = schedule.next.getAndIncrement(); schedule.open(k); k = schedule.next.getAndIncrement()) {
          long due = schedule.due(k);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
          PreparedStatement ps = statements.get((int) (k % workload.tables()));
          long sent = System.nanoTime();
          if (sent - due > LATE_NANOS) {
            schedule.late.increment();
          }
          Loader.bind(ps, random, lengths, firstId + k);
          ps.executeUpdate();
          long roundTrip = System.nanoTime() - sent;
          schedule.roundTrips.add(roundTrip);
          commits.record(roundTrip / 1_000);
          if (schedule.roundTripMicros != null) {
            schedule.roundTripMicros[(int) k] = (int) Math.min(Integer.MAX_VALUE, roundTrip / 1_000);
          }
          schedule.written.increment();
          progress.add(1);
        }
      } finally {
        for (PreparedStatement ps : statements) {
          ps.close();
        }
      }
    }
  }
}
