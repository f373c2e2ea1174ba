package io.gridway.applier.phoenix;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.EventJson;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Locale;

/**
 * The change-log mode's one table: every change appended as a row keyed by (source, SCN, partition, position in the
 * transaction), so a replayed change rewrites its own row with the same values and is held once (README.md). Images
 * are JSON in core's {@link EventJson} form.
 *
 * <p>Immutable and thread-safe.
 */
final class ChangeLog {
  private static final JsonFactory JSON = new JsonFactory();
  private final String table;

  ChangeLog(String table) {
    this.table = GuardedTable.q(table);
  }

  String ddl(String columnFamily, Integer saltBuckets) {
    StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table).append(" (")
        .append("\"source\" VARCHAR NOT NULL, \"scn\" BIGINT NOT NULL, \"partition\" INTEGER NOT NULL,")
        .append(" \"position\" INTEGER NOT NULL, \"database\" VARCHAR, \"table\" VARCHAR, \"op\" VARCHAR,")
        .append(" \"commit_time\" TIMESTAMP, \"key\" VARCHAR, \"before\" VARCHAR, \"after\" VARCHAR, \"ddl\" VARCHAR,")
        .append(" CONSTRAINT \"pk\" PRIMARY KEY (\"source\", \"scn\", \"partition\", \"position\"))");
    String sep = " ";
    if (columnFamily != null) {
      sql.append(sep).append("DEFAULT_COLUMN_FAMILY='").append(columnFamily).append('\'');
      sep = ", ";
    }
    if (saltBuckets != null) {
      sql.append(sep).append("SALT_BUCKETS=").append(saltBuckets);
    }
    return sql.toString();
  }

  String upsertSql() {
    return "UPSERT INTO " + table + " (\"source\", \"scn\", \"partition\", \"position\", \"database\", \"table\", \"op\","
        + " \"commit_time\", \"key\", \"before\", \"after\", \"ddl\") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  }

  void bind(PreparedStatement ps, ChangeEvent e, int partition, int position) throws SQLException {
    TableSchema schema = e.schema();
    ps.setString(1, schema.source());
    ps.setLong(2, e.scn().value());
    ps.setInt(3, partition);
    ps.setInt(4, position);
    ps.setString(5, schema.database());
    ps.setString(6, schema.table());
    ps.setString(7, e.op().name().toLowerCase(Locale.ROOT));
    long micros = e.commitTimeMicros();
    ps.setTimestamp(8, Timestamp.from(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
        Math.floorMod(micros, 1_000_000L) * 1000L)));
    ps.setString(9, keyJson(e));
    ps.setString(10, rowJson(schema, e.before()));
    ps.setString(11, rowJson(schema, e.after()));
    ps.setString(12, e.ddl());
  }

  private static String keyJson(ChangeEvent e) {
    Row row = e.after() != null ? e.after() : e.before();
    if (row == null || !e.schema().hasPrimaryKey()) {
      return null;
    }
    TableSchema schema = e.schema();
    StringWriter text = new StringWriter(32);
    try (JsonGenerator g = JSON.createGenerator(text)) {
      g.writeStartObject();
      for (int k = 0; k < schema.keySize(); k++) {
        int i = schema.keyIndex(k);
        g.writeFieldName(schema.column(i).name());
        EventJson.writeValue(schema.column(i), row.get(i), g);
      }
      g.writeEndObject();
    } catch (IOException x) {
      throw new UncheckedIOException("a StringWriter does not fail", x);
    }
    return text.toString();
  }

  static String rowJson(TableSchema schema, Row row) {
    if (row == null) {
      return null;
    }
    StringWriter text = new StringWriter(128);
    try (JsonGenerator g = JSON.createGenerator(text)) {
      g.writeStartObject();
      for (int i = 0; i < row.size(); i++) {
        g.writeFieldName(schema.column(i).name());
        EventJson.writeValue(schema.column(i), row.get(i), g);
      }
      g.writeEndObject();
    } catch (IOException x) {
      throw new UncheckedIOException("a StringWriter does not fail", x);
    }
    return text.toString();
  }
}
