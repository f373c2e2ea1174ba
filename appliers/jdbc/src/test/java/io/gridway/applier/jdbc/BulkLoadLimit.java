package io.gridway.applier.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.SplittableRandom;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * The benchmark's same-run limits (not a test): rows of the benchmark's shape (3 tables, ~1,100 bytes, ids in order)
 * loaded by one connection without the grid, a commit per 4,096 rows as the applier's batches: PostgreSQL by {@code
 * COPY}, by {@code COPY} into a temporary staging table plus one {@code INSERT … SELECT … ON CONFLICT DO UPDATE} (what a
 * staging path of the applier would cost), and by multi-row {@code INSERT … ON CONFLICT} batches (what the applier
 * sends); MariaDB by multi-row {@code INSERT} of 128 rows.
 */
final class BulkLoadLimit {
  private static final int COMMIT_ROWS = 4096;
  private static final int TABLES = 3;
  private static final String COLUMNS = "id, tenant, amount, updated, payload";

  private BulkLoadLimit() {}

  enum Mode { COPY, COPY_STAGING, MULTI_ROW_UPSERT, MULTI_ROW_INSERT }

  /** Loads {@code rows} rows into fresh tables {@code synthetic.limit<t>} and prints one benchmark line. */
  static void round(HikariDataSource pool, SqlDialect d, Mode mode, int rows) throws Exception {
    String payload = payload();
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      for (int t = 0; t < TABLES; t++) {
        s.execute("DROP TABLE IF EXISTS " + table(d, t));
        s.execute("CREATE TABLE " + table(d, t) + " (id BIGINT NOT NULL PRIMARY KEY, tenant INTEGER, amount NUMERIC(12,2),"
            + (d == SqlDialect.POSTGRESQL ? " updated TIMESTAMPTZ(6), payload TEXT)" : " updated TIMESTAMP(6) NULL,"
            + " payload LONGTEXT) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"));
      }
      c.commit();
      String load0 = load();
      long t0 = System.nanoTime();
      for (int from = 0; from < rows; from += COMMIT_ROWS) {
        int to = Math.min(rows, from + COMMIT_ROWS);
        for (int t = 0; t < TABLES; t++) {
          switch (mode) {
            case COPY -> copy(c, table(d, t), from, to, t, payload);
            case COPY_STAGING -> staged(c, s, table(d, t), from, to, t, payload);
            default -> multiRow(c, d, mode, table(d, t), from, to, t, payload);
          }
        }
        c.commit();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("| %s | limit: %s | %,d | %.1f | %,.0f | %,d | | | | %s / %s |%n", d.name(), mode, rows, seconds,
          rows / seconds, (rows + COMMIT_ROWS - 1) / COMMIT_ROWS, load0, load());
    }
  }

  private static String table(SqlDialect d, int t) {
    return d.table("synthetic", "limit" + t);
  }

  private static void copy(Connection c, String table, int from, int to, int t, String payload) throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = from; i < to; i++) {
      if (i % TABLES == t) {
        text.append(i).append('\t').append(i % 100).append('\t').append(i % 10_000).append(".25\t")
            .append(LocalDateTime.of(2026, 11, 26, 0, 0).plusNanos(i * 1000L)).append("+00\t").append(payload).append('\n');
      }
    }
    CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
    copy.copyIn("COPY " + table + " (" + COLUMNS + ") FROM STDIN", new StringReader(text.toString()));
  }

  private static void staged(Connection c, Statement s, String table, int from, int to, int t, String payload)
      throws Exception {
    s.execute("CREATE TEMP TABLE IF NOT EXISTS staging (LIKE " + table + ") ON COMMIT DELETE ROWS");
    copy(c, "staging", from, to, t, payload);
    s.execute("INSERT INTO " + table + " SELECT * FROM staging ON CONFLICT (id) DO UPDATE SET tenant = EXCLUDED.tenant,"
        + " amount = EXCLUDED.amount, updated = EXCLUDED.updated, payload = EXCLUDED.payload");
    s.execute("TRUNCATE staging"); // the next table's rows in the same transaction
  }

  private static void multiRow(Connection c, SqlDialect d, Mode mode, String table, int from, int to, int t,
      String payload) throws Exception {
    String one = "(?, ?, ?, ?, ?)";
    String tail = mode == Mode.MULTI_ROW_UPSERT ? " ON CONFLICT (id) DO UPDATE SET tenant = EXCLUDED.tenant, amount ="
        + " EXCLUDED.amount, updated = EXCLUDED.updated, payload = EXCLUDED.payload" : "";
    String sql = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES " + one + tail;
    if (d == SqlDialect.MARIADB) {
      sql = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES " + one + (", " + one).repeat(127);
    }
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int p = 1;
      int n = 0;
      for (int i = from; i < to; i++) {
        if (i % TABLES != t) {
          continue;
        }
        ps.setLong(p++, i);
        ps.setInt(p++, i % 100);
        ps.setBigDecimal(p++, new java.math.BigDecimal(i % 10_000 + ".25"));
        ps.setObject(p++, LocalDateTime.of(2026, 11, 26, 0, 0).plusNanos(i * 1000L).atOffset(java.time.ZoneOffset.UTC));
        ps.setString(p++, payload);
        n++;
        if (d == SqlDialect.MARIADB && n == 128) {
          ps.executeUpdate();
          p = 1;
          n = 0;
        } else if (d != SqlDialect.MARIADB) {
          ps.addBatch(); // pgjdbc's reWriteBatchedInserts makes multi-row statements of it
          p = 1;
        }
      }
      if (d != SqlDialect.MARIADB) {
        ps.executeBatch();
      } else if (n > 0) { // the tail row by row
        for (int r = 0; r < n; r++) {
          try (PreparedStatement single = c.prepareStatement("INSERT INTO " + table + " (" + COLUMNS + ") VALUES " + one)) {
            for (int col = 1; col <= 5; col++) {
              single.setObject(col, rowValue(from, to, t, n, r, col, payload));
            }
            single.executeUpdate();
          }
        }
      }
    }
  }

  /** Column {@code col} of the {@code r}-th of the last {@code n} rows of table t in [from, to). */
  private static Object rowValue(int from, int to, int t, int n, int r, int col, String payload) {
    int seen = 0;
    int i = to - 1;
    for (; i >= from; i--) {
      if (i % TABLES == t && ++seen == n - r) {
        break;
      }
    }
    return switch (col) {
      case 1 -> (long) i;
      case 2 -> i % 100;
      case 3 -> new java.math.BigDecimal(i % 10_000 + ".25");
      case 4 -> LocalDateTime.of(2026, 11, 26, 0, 0).plusNanos(i * 1000L);
      default -> payload;
    };
  }

  private static String payload() {
    SplittableRandom random = new SplittableRandom(1);
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 1_067; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  private static String load() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
  }
}
