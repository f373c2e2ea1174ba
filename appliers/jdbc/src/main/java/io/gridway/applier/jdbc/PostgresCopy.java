package io.gridway.applier.jdbc;

import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * PostgreSQL's bulk path for a set-based round whose upserts are all of keys the source had just created (INSERT, or
 * a snapshot READ): {@code COPY t (columns) FROM STDIN} of those rows, under a savepoint, instead of multi-row {@code
 * INSERT … ON CONFLICT DO UPDATE} statements (JDBC.md "Bulk paths"). For a key the target does not hold, inserting the
 * row is what the upsert does; when the target holds one of the keys after all (a snapshot over rows the target has,
 * an insert of a key it kept), the COPY fails with a unique violation, the savepoint undoes it, and the round goes by
 * upserts — so the outcome is the upsert's either way. The tables are ones {@link OrderRules} lets regroup, so the
 * primary key is their only unique constraint and no trigger or foreign key sees the difference.
 *
 * <p>COPY streams: the server inserts while the applier formats the next rows, and it inserts in batches of its own
 * (no statement to parse or plan per row). A table whose COPY met a held key goes by upserts for a minute, so a
 * re-snapshot over a full target does not pay a failed COPY per round. Thread-safe (state: that backoff).
 */
final class PostgresCopy {
  /** Fewer rows than this go by upserts: the savepoint's two round trips would not pay off. */
  static final int MIN_ROWS = 64;
  /** COPY data is sent in messages of about this size while the next rows are formatted. */
  private static final int MESSAGE_BYTES = 256 << 10;
  private static final Duration BACKOFF = Duration.ofMinutes(1);
  private static final String UNIQUE_VIOLATION = "23505";

  private final Clock clock;
  /** Target table → until when it goes by upserts (its COPY met a key the target holds). */
  private final ConcurrentHashMap<String, Instant> heldKeys = new ConcurrentHashMap<>();
  private final Counter copiedRows;
  private final Counter heldKeyFallbacks;
  private final Counter valueFallbacks;

  PostgresCopy(Clock clock, MeterRegistry meters) {
    this.clock = clock;
    this.copiedRows = meters.counter("gridway.consumer.jdbc.copy.rows");
    this.heldKeyFallbacks = meters.counter("gridway.consumer.jdbc.copy.fallbacks", "reason", "held-key");
    this.valueFallbacks = meters.counter("gridway.consumer.jdbc.copy.fallbacks", "reason", "value");
  }

  /** Whether a round of this table may try COPY now. */
  boolean worthTrying(String table) {
    Instant until = heldKeys.get(table);
    if (until == null) {
      return true;
    }
    if (clock.instant().isBefore(until)) {
      return false;
    }
    heldKeys.remove(table, until);
    return true;
  }

  /**
   * Copies the rows into the table; true when they are in (in the caller's transaction), false when nothing of them
   * is and the caller must send them by upserts: a key the target holds, or a value {@link CopyText} cannot write
   * exactly. Any other failure (a value the target refuses, a lost connection) is thrown as it is, the transaction
   * failed as a statement's failure would fail it.
   */
  boolean copy(Connection c, String sql, String table, TableSchema s, List<Row> rows, CopyText text)
      throws SQLException {
    Savepoint before = c.setSavepoint();
    CopyIn in = null;
    text.clear();
    try {
      in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
      for (Row row : rows) {
        if (!text.append(s, row)) {
          CopyIn abandoned = in;
          in = null;
          cancel(abandoned); // the server ends the COPY with an error the savepoint undoes
          c.rollback(before);
          valueFallbacks.increment();
          return false;
        }
        if (text.size() >= MESSAGE_BYTES) {
          in.writeToCopy(text.bytes(), 0, text.size());
          text.clear();
        }
      }
      if (text.size() > 0) {
        in.writeToCopy(text.bytes(), 0, text.size());
      }
      text.clear();
      in.endCopy();
      in = null;
      c.releaseSavepoint(before);
      copiedRows.increment(rows.size());
      return true;
    } catch (SQLException e) {
      if (in != null && in.isActive()) {
        try {
          in.cancelCopy();
        } catch (SQLException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (!heldKey(e)) {
        throw e;
      }
      c.rollback(before);
      heldKeys.put(table, clock.instant().plus(BACKOFF));
      heldKeyFallbacks.increment();
      return false;
    } finally {
      text.clear();
    }
  }

  private static void cancel(CopyIn in) {
    try {
      in.cancelCopy();
    } catch (SQLException expected) {
      // the driver may report the COPY it was asked to fail as an error; the rollback to the savepoint follows
    }
  }

  private static boolean heldKey(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && UNIQUE_VIOLATION.equals(s.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
