package io.gridway.perf;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The latency run's steady workload: {@code rate} single-row insert transactions per second for a
 * duration, each row stamped with its send time (epoch µs, column {@code sent_us}) by {@link Loader#bind}.
 * Transaction k is due at start + k / rate and goes to writer k % W and table k % tables; a writer
 * behind schedule sends at once (it never skips), so a slow server shows as a lower achieved rate, which
 * the report prints. Ids start at {@code firstId} so they never collide with the load's. One instance per run.
 */
final class PacedWriter {
  static final int WRITERS = 4;

  record Written(long transactions, double seconds) {
    double rate() {
      return transactions / seconds;
    }
  }

  private final SourceDb db;
  private final Workload workload;

  PacedWriter(SourceDb db, Workload workload) {
    this.db = db;
    this.workload = workload;
  }

  Written run(double rate, Duration duration, long firstId, Progress progress) throws SQLException, InterruptedException {
    long total = Math.max(1, (long) (rate * duration.toNanos() / 1e9));
    long start = System.nanoTime() + 50_000_000L; // every writer is connected by then
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    LongAdder written = new LongAdder();
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          write(writer, total, rate, start, firstId, written, progress);
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
    return new Written(written.sum(), (System.nanoTime() - start) / 1e9);
  }

  private void write(int writer, long total, double rate, long start, long firstId, LongAdder written, Progress progress)
      throws SQLException {
    SplittableRandom random = new SplittableRandom(31L * writer + 17);
    int[] lengths = Loader.stringLengths(workload.recordSize());
    try (Connection c = db.connect()) {
      c.setAutoCommit(true); // one row, one transaction
      List<PreparedStatement> statements = new ArrayList<>();
      try {
        for (int t = 0; t < workload.tables(); t++) {
          statements.add(c.prepareStatement(Loader.statement(Workload.tableName(t), false)));
        }
        for (long k = writer; k < total; k += WRITERS) {
          long due = start + (long) (k * 1e9 / rate);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
          PreparedStatement ps = statements.get((int) (k % workload.tables()));
          Loader.bind(ps, random, lengths, firstId + k);
          ps.executeUpdate();
          written.increment();
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
