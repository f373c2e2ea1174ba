package io.gridway.applier.jdbc;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Upserts of one table held for multi-row statements (dialects whose driver would send a batch row by row: MariaDB),
 * in order. Not thread-safe: one per {@link TargetTransaction} lane.
 */
final class UpsertRows {
  /** Bound on the estimated size of one multi-row statement, well under MariaDB's default 16 MiB packet limit. */
  private static final int MAX_STATEMENT_BYTES = 4 << 20;

  private final List<Row> rows = new ArrayList<>();
  private int[] bytes = new int[64];

  void add(TableSchema s, Row row) {
    if (rows.size() == bytes.length) {
      bytes = Arrays.copyOf(bytes, bytes.length * 2);
    }
    bytes[rows.size()] = estimatedBytes(s, row);
    rows.add(row);
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void clear() {
    rows.clear();
  }

  /**
   * The held upserts as multi-row statements of the dialect's maximum row count, the rest in power-of-two counts (so a
   * table needs at most eight statement texts), each statement under {@link #MAX_STATEMENT_BYTES}. Rows keep their
   * order; a key twice in one statement is applied in order (MariaDB's {@code ON DUPLICATE KEY UPDATE}); consecutive
   * statements of one row count are sent as one pipelined JDBC batch. Clears them.
   */
  void send(TargetTransaction tx, SqlDialect d, StatementCache statements, TableSchema s, TableTarget t)
      throws SQLException {
    int max = d.upsertRowsPerStatement(s);
    int columns = s.columnCount();
    // Consecutive statements of one size go as one JDBC batch: the driver pipelines them (writes every statement, then
    // reads the answers), so the server executes one while the next is encoded and sent, instead of a round trip each.
    // The order of the statements, and so of the rows, is kept.
    PreparedStatement open = null;
    for (int from = 0; from < rows.size(); ) {
      int n = 0;
      long size = 0;
      while (from + n < rows.size() && n < max && (n == 0 || size + bytes[from + n] <= MAX_STATEMENT_BYTES)) {
        size += bytes[from + n];
        n++;
      }
      if (n < max) {
        n = Integer.highestOneBit(n);
      }
      PreparedStatement ps = tx.statement(statements.upsertRows(s, t, n));
      if (ps != open && open != null) {
        open.executeBatch();
      }
      open = ps;
      int i = 1;
      for (int r = from; r < from + n; r++) {
        Row row = rows.get(r);
        for (int col = 0; col < columns; col++) {
          d.bind(ps, i++, s.column(col), row.get(col));
        }
      }
      ps.addBatch();
      from += n;
    }
    if (open != null) {
      open.executeBatch();
    }
    rows.clear();
  }

  /** A row's size in a statement, roughly: strings at 3 bytes a char (UTF-8), binaries as they are. */
  private static int estimatedBytes(TableSchema s, Row row) {
    long size = 0;
    for (int col = 0; col < s.columnCount(); col++) {
      Object v = row.get(col);
      if (v instanceof String str) {
        size += 3L * str.length() + 8;
      } else if (v instanceof Bytes b) {
        size += b.length() + 8;
      } else {
        size += 16;
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, size);
  }
}
