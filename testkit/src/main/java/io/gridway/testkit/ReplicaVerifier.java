package io.gridway.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one final-state check of every fault scenario, read with the test's own SQL on both databases (never through
 * the grid): each {@link #table keyed table} of the target equals the source's row for row; each {@link #appendOnly
 * append-only table} (keyless, written by the workload) holds exactly the source's rows — a missing row is a lost
 * transaction, a surplus copy one applied twice; and where the target records its apply order, each key's
 * {@link #order positions} follow the source's commit (SCN) order.
 *
 * <p>Queries return rows as {@link SqlRows} text, so each side's SQL must render values alike (format timestamps,
 * cast booleans). Row order does not matter: rows are compared as sorted multisets. Failures name the table, the row
 * counts and the first differing rows. Not thread-safe; build one per scenario.
 */
public final class ReplicaVerifier {
  /** Opens a new connection to one side. */
  @FunctionalInterface
  public interface Side {
    Connection connect() throws SQLException;
  }

  private static final int SHOWN = 10;

  private final Side source;
  private final Side target;
  private final List<Check> checks = new ArrayList<>();

  private interface Check {
    /** Empty when it holds, else what is wrong, for people. */
    String problem(Side source, Side target) throws SQLException;
  }

  private ReplicaVerifier(Side source, Side target) {
    this.source = source;
    this.target = target;
  }

  public static ReplicaVerifier between(Side source, Side target) {
    return new ReplicaVerifier(source, target);
  }

  /** A table with a key: the target's rows equal the source's, none missing, none extra, none different. */
  public ReplicaVerifier table(String name, String sourceSql, String targetSql) {
    checks.add((s, t) -> compare(name, "row", SqlRows.of(s.connect(), sourceSql), SqlRows.of(t.connect(), targetSql)));
    return this;
  }

  /**
   * A keyless table the workload only inserts into: the target holds exactly the source's rows, counting copies —
   * a row short is a lost transaction, a row over is one applied twice.
   */
  public ReplicaVerifier appendOnly(String name, String sourceSql, String targetSql) {
    checks.add((s, t) -> compare(name, "append-only", SqlRows.of(s.connect(), sourceSql),
        SqlRows.of(t.connect(), targetSql)));
    return this;
  }

  /**
   * Per-key order: {@code targetSql} returns {@code key|position} in the order the target applied them (e.g. by a
   * target-side serial column), where position is the source's commit order (a sequence the workload writes); each
   * key's positions must never go back.
   */
  public ReplicaVerifier order(String name, String targetSql) {
    checks.add((s, t) -> ordered(name, SqlRows.of(t.connect(), targetSql)));
    return this;
  }

  /** Every problem found now; empty when the target matches. */
  public List<String> problems() throws SQLException {
    List<String> problems = new ArrayList<>();
    for (Check check : checks) {
      String problem = check.problem(source, target);
      if (!problem.isEmpty()) {
        problems.add(problem);
      }
    }
    return problems;
  }

  /** Throws an {@link AssertionError} listing every problem, unless there is none. */
  public void assertMatches() throws SQLException {
    List<String> problems = problems();
    if (!problems.isEmpty()) {
      throw new AssertionError("target does not match source:\n" + String.join("\n", problems));
    }
  }

  /**
   * Waits until the target matches (the consumer catching up), then checks once more; fails with the problems when
   * it does not within {@code timeout}. A target still converging is polled, not slept on for a fixed time.
   */
  public void awaitMatches(Duration timeout) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!problems().isEmpty() && System.nanoTime() - deadline < 0) {
      Thread.sleep(250);
    }
    assertMatches();
  }

  static String compare(String table, String kind, List<String> want, List<String> got) {
    List<String> sortedWant = new ArrayList<>(want);
    List<String> sortedGot = new ArrayList<>(got);
    Collections.sort(sortedWant);
    Collections.sort(sortedGot);
    if (sortedWant.equals(sortedGot)) {
      return "";
    }
    Map<String, Integer> surplus = new HashMap<>();
    sortedGot.forEach(r -> surplus.merge(r, 1, Integer::sum));
    List<String> missing = new ArrayList<>();
    for (String row : sortedWant) {
      if (surplus.merge(row, -1, Integer::sum) < 0) {
        missing.add(row);
      }
    }
    List<String> extra = new ArrayList<>();
    List<String> duplicated = new ArrayList<>();
    for (String row : sortedGot) {
      Integer n = surplus.get(row);
      if (n != null && n > 0) {
        (sortedWant.contains(row) ? duplicated : extra).add(row);
        surplus.merge(row, -1, Integer::sum);
      }
    }
    StringBuilder out = new StringBuilder().append(table).append(" (").append(kind).append("): source ")
        .append(want.size()).append(" rows, target ").append(got.size());
    section(out, "missing in the target (lost)", missing);
    section(out, "applied more often than in the source (duplicated)", duplicated);
    section(out, "in the target only (different or extra)", extra);
    return out.toString();
  }

  static String ordered(String table, List<String> keyAndPosition) {
    Map<String, Long> last = new HashMap<>();
    List<String> backwards = new ArrayList<>();
    for (String row : keyAndPosition) {
      int bar = row.lastIndexOf('|');
      if (bar < 0) {
        throw new IllegalArgumentException(table + ": order query must return key|position, got " + row);
      }
      String key = row.substring(0, bar);
      long position = Long.parseLong(row.substring(bar + 1));
      Long before = last.put(key, position);
      if (before != null && before > position) {
        backwards.add("key " + key + ": " + before + " then " + position);
      }
    }
    if (backwards.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder().append(table).append(" (order): ").append(keyAndPosition.size())
        .append(" rows applied");
    section(out, "applied out of source commit order", backwards);
    return out.toString();
  }

  private static void section(StringBuilder out, String what, List<String> rows) {
    if (!rows.isEmpty()) {
      out.append("\n  ").append(rows.size()).append(' ').append(what).append(", first ")
          .append(Math.min(SHOWN, rows.size())).append(": ").append(rows.subList(0, Math.min(SHOWN, rows.size())));
    }
  }
}
