package io.gridway.applier.jdbc;

import io.gridway.testkit.SqlRows;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the PostgreSQL target and the consumer JVMs were doing when a step of a fault scenario takes too long, printed
 * to the test's output: every session of the target database ({@code pg_stat_activity}, with the sessions blocking
 * each), their locks ({@code pg_locks}), and a thread dump of each live consumer ({@code jcmd Thread.print}). A stall
 * that ends in a timeout otherwise leaves nothing to read: the rig is gone by then.
 *
 * <p>{@link #watch} dumps once after {@code first} and once more after three times that, unless closed first.
 */
final class StallDump implements AutoCloseable {
  private static final String SESSIONS = """
      SELECT pid, application_name, client_addr || ':' || client_port AS client, backend_start, xact_start,
             state_change, state, wait_event_type || '/' || wait_event AS waiting, pg_blocking_pids(pid) AS blocked_by,
             backend_xid, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
      FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY backend_start""";
  private static final String LOCKS = """
      SELECT l.pid, l.locktype, coalesce(l.relation::regclass::text, '') AS relation, l.page, l.tuple,
             l.transactionid, l.mode, l.granted
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE a.datname = current_database() AND l.pid <> pg_backend_pid()
        AND NOT (l.locktype = 'relation' AND l.mode = 'AccessShareLock' AND l.granted)
      ORDER BY l.granted, l.pid""";

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "stall-dump");
    t.setDaemon(true);
    return t;
  });

  private StallDump() {}

  /**
   * Dumps {@code rig}'s target and the consumers named in {@code consumers} (read when the dump is taken, so a
   * restarted one is seen) if not closed within {@code first}, and again after {@code 3 × first}.
   */
  static StallDump watch(String what, FaultRig rig, List<String> consumers, Duration first) {
    StallDump dump = new StallDump();
    Instant began = Instant.now();
    Runnable print = () -> System.out.println(dump.report(what + " (" + Duration.between(began, Instant.now())
        .toSeconds() + " s)", rig, consumers));
    dump.timer.schedule(print, first.toMillis(), TimeUnit.MILLISECONDS);
    dump.timer.schedule(print, first.toMillis() * 3, TimeUnit.MILLISECONDS);
    return dump;
  }

  private String report(String what, FaultRig rig, List<String> consumers) {
    StringBuilder out = new StringBuilder("===== stall: " + what + " at " + Instant.now() + "\n");
    try {
      out.append("--- pg_stat_activity: pid|application_name|client|backend_start|xact_start|state_change|state|waiting"
          + "|blocked_by|backend_xid|query\n");
      SqlRows.of(rig.target.connect(), SESSIONS).forEach(r -> out.append(r).append('\n'));
    } catch (Exception e) {
      out.append("(target not read: ").append(e).append(")\n");
    }
    try {
      out.append("--- pg_locks but granted relation AccessShareLocks: pid|locktype|relation|page|tuple|transactionid"
          + "|mode|granted\n");
      SqlRows.of(rig.target.connect(), LOCKS).forEach(r -> out.append(r).append('\n'));
    } catch (Exception e) {
      out.append("(locks not read: ").append(e).append(")\n");
    }
    for (String name : consumers) {
      Process p = rig.consumer(name);
      if (p == null || !p.isAlive()) {
        out.append("--- ").append(name).append(": not running\n");
        continue;
      }
      out.append("--- threads of ").append(name).append(" (pid ").append(p.pid()).append(")\n")
          .append(threads(p.pid()));
    }
    return out.append("===== end of stall dump\n").toString();
  }

  private static String threads(long pid) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print").redirectErrorStream(true)
          .start();
      byte[] out = p.getInputStream().readAllBytes();
      p.waitFor(60, TimeUnit.SECONDS);
      return new String(out, StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "(no thread dump: " + e + ")\n";
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
