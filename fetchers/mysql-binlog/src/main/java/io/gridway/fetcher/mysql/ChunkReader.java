package io.gridway.fetcher.mysql;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.snapshot.Chunk;
import io.gridway.core.snapshot.ChunkReadException;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.core.snapshot.SnapshotReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads snapshot chunks from a MySQL/MariaDB source (docs/bootstrap.md §1): one short {@code START TRANSACTION WITH
 * CONSISTENT SNAPSHOT, READ ONLY} per chunk, rows in primary-key order after the previous chunk's last key, no lock.
 *
 * <p>Watermarks without writing to the source: on MariaDB the status variables {@code binlog_snapshot_file} /
 * {@code binlog_snapshot_position}, read inside the snapshot, are the exact binlog position the snapshot sees, so the
 * chunk's window is empty ({@code low == high}). Elsewhere (MySQL) {@code low} is {@code SHOW MASTER STATUS} before the
 * snapshot starts and {@code high} the same right after it started; the caller drops rows changed in between.
 *
 * <p>A table without a primary key is read whole in one chunk, refused when larger than {@code keylessMaxBytes}.
 * Thread-safe: each read takes its own pooled connection.
 */
final class ChunkReader implements SnapshotReader {
  private static final int ROW_OVERHEAD_BYTES = 16;
  /** The largest keyless table read in one chunk (docs/bootstrap.md §4); not configurable yet. */
  static final long KEYLESS_MAX_BYTES = 256L << 20;

  private final Jdbc jdbc;
  private final TableDescriber describer;
  private final SchemaFactory schemas;
  private final long keylessMaxBytes;
  private final Long gtidDomain;

  ChunkReader(Jdbc jdbc, TableDescriber describer, SchemaFactory schemas, long keylessMaxBytes) {
    this(jdbc, describer, schemas, keylessMaxBytes, null);
  }

  /**
   * @param gtidDomain with {@code scn: gtid}, the GTID domain whose sequence number gives the watermarks'
   *     SCNs (docs/scn.md); null for {@code scn: file}
   */
  ChunkReader(Jdbc jdbc, TableDescriber describer, SchemaFactory schemas, long keylessMaxBytes, Long gtidDomain) {
    this.gtidDomain = gtidDomain;
    this.jdbc = jdbc;
    this.describer = describer;
    this.schemas = schemas;
    this.keylessMaxBytes = keylessMaxBytes;
  }

  @Override
  public Chunk read(ChunkRequest request) {
    String name = request.database() + "." + request.table();
    try {
      TableDescription description = describer.describe(request.database(), request.table());
      if (description == null) {
        throw new FetcherException("cannot snapshot " + name + ": no such table on the source");
      }
      TableSchema schema = schemas.fromDescription(description);
      if (!request.after().isEmpty() && request.after().size() != schema.keySize()) {
        throw new FetcherException("cannot snapshot " + name + ": the chunk starts after a key of "
            + request.after().size() + " values, the table's key has " + schema.keySize());
      }
      try (Connection c = jdbc.connection(); Statement st = c.createStatement()) {
        st.execute("SET SESSION time_zone = '+00:00'"); // TIMESTAMP text in UTC (SnapshotValues)
        try {
          return readInSnapshot(c, st, schema, request);
        } finally {
          st.execute("SET SESSION time_zone = DEFAULT");
        }
      }
    } catch (SQLException e) {
      int code = Jdbc.vendorCode(e);
      if (code == 1142 || code == 1143 || code == 1227 || code == 1044 || code == 1045) {
        throw new FetcherException("cannot snapshot " + name + ": " + Jdbc.rootMessage(e)
            + " (the snapshot needs SELECT on the table; MySQL also REPLICATION CLIENT)", e);
      }
      throw new ChunkReadException("reading a chunk of " + name + " failed: " + Jdbc.rootMessage(e), e);
    }
  }

  private Chunk readInSnapshot(Connection c, Statement st, TableSchema schema, ChunkRequest request)
      throws SQLException {
    Scn before = snapshotPosition(st);
    boolean exact = before != null; // MariaDB: the status variables exist
    if (!exact) {
      before = masterStatus(st);
    }
    st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
    boolean committed = false;
    try {
      Scn low = exact ? snapshotPosition(st) : before;
      Scn high = exact ? low : masterStatus(st);
      Chunk chunk = schema.hasPrimaryKey() ? keyed(c, schema, request, low, high) : keyless(c, schema, low, high);
      st.execute("COMMIT");
      committed = true;
      return chunk;
    } finally {
      if (!committed) {
        st.execute("ROLLBACK");
      }
    }
  }

  private Chunk keyed(Connection c, TableSchema schema, ChunkRequest request, Scn low, Scn high) throws SQLException {
    StringBuilder sql = select(schema);
    List<String> key = new ArrayList<>(schema.keySize());
    for (int k = 0; k < schema.keySize(); k++) {
      key.add(quote(schema.column(schema.keyIndex(k)).name()));
    }
    if (!request.after().isEmpty()) {
      // a row comparison follows the key's index order and collation, the same as ORDER BY
      sql.append(" WHERE (").append(String.join(", ", key)).append(") > (")
          .append(String.join(", ", java.util.Collections.nCopies(key.size(), "?"))).append(')');
    }
    sql.append(" ORDER BY ").append(String.join(", ", key)).append(" LIMIT ").append(request.maxRows());
    List<Row> rows = new ArrayList<>();
    long bytes = 0;
    boolean full = false;
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      for (int k = 0; k < request.after().size(); k++) {
        bind(ps, k + 1, request.after().get(k), schema.column(schema.keyIndex(k)));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Row row = row(rs, schema);
          rows.add(row);
          bytes += size(row);
          if (bytes >= request.maxBytes()) {
            full = true;
            break;
          }
        }
      }
    }
    boolean done = !full && rows.size() < request.maxRows();
    List<Object> lastKey = rows.isEmpty() ? request.after() : keyOf(schema, rows.get(rows.size() - 1));
    return new Chunk(schema, rows, low, high, lastKey, done, bytes);
  }

  private Chunk keyless(Connection c, TableSchema schema, Scn low, Scn high) throws SQLException {
    List<Row> rows = new ArrayList<>();
    long bytes = 0;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(select(schema).toString())) {
      while (rs.next()) {
        Row row = row(rs, schema);
        rows.add(row);
        bytes += size(row);
        if (bytes > keylessMaxBytes) {
          throw new FetcherException("cannot snapshot " + schema.qualifiedName() + ": a table without a primary key is"
              + " read in one chunk, and it holds more than snapshot.keylessMaxBytes (" + keylessMaxBytes
              + " bytes); add a primary key or raise the limit");
        }
      }
    }
    return new Chunk(schema, rows, low, high, List.of(), true, bytes);
  }

  private static StringBuilder select(TableSchema schema) {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < schema.columnCount(); i++) {
      Column col = schema.column(i);
      sql.append(i == 0 ? "" : ", ").append(SnapshotValues.select(col, quote(col.name())));
    }
    return sql.append(" FROM ").append(quote(schema.database())).append('.').append(quote(schema.table()));
  }

  private static Row row(ResultSet rs, TableSchema schema) throws SQLException {
    Object[] values = new Object[schema.columnCount()];
    for (int i = 0; i < values.length; i++) {
      values[i] = SnapshotValues.read(rs, i + 1, schema.column(i));
    }
    return Row.of(schema, values);
  }

  private static List<Object> keyOf(TableSchema schema, Row row) {
    List<Object> key = new ArrayList<>(schema.keySize());
    for (int k = 0; k < schema.keySize(); k++) {
      key.add(row.get(schema.keyIndex(k)));
    }
    return key;
  }

  /**
   * A key value of the previous chunk, bound as the column's own kind so that the server compares it exactly (a DECIMAL
   * compared with a string would be compared as DOUBLE). Values come back from JSON as numbers, strings or bytes.
   */
  private static void bind(PreparedStatement ps, int i, Object value, Column column) throws SQLException {
    if (value == null) {
      ps.setNull(i, java.sql.Types.NULL);
      return;
    }
    switch (column.type()) {
      case DECIMAL -> ps.setBigDecimal(i, value instanceof BigDecimal d ? d : new BigDecimal(value.toString()));
      case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR, BIT -> ps.setBigDecimal(i, new BigDecimal(value.toString()));
      case FLOAT, DOUBLE -> ps.setDouble(i, value instanceof Number n ? n.doubleValue() : Double.parseDouble(value.toString()));
      case BINARY, VARBINARY, BLOB, GEOMETRY -> {
        if (!(value instanceof Bytes b)) {
          throw new FetcherException("chunk key column " + column.name() + " is binary; the key value must be bytes");
        }
        ps.setBytes(i, b.toByteArray());
      }
      default -> ps.setString(i, text(value)); // strings and temporals: the server's own text forms
    }
  }

  private static String text(Object value) {
    if (value instanceof Instant t) {
      return LocalDateTime.ofInstant(t, ZoneOffset.UTC).toString().replace('T', ' ');
    }
    if (value instanceof LocalDateTime t) {
      return t.toString().replace('T', ' ');
    }
    if (value instanceof java.time.Duration d) {
      return timeText(d);
    }
    return value.toString();
  }

  private static String timeText(java.time.Duration d) {
    long micros = Math.abs(d.toNanos() / 1000);
    return String.format("%s%d:%02d:%02d.%06d", d.isNegative() ? "-" : "", micros / 3_600_000_000L,
        micros / 60_000_000 % 60, micros / 1_000_000 % 60, micros % 1_000_000);
  }

  /** The row's size as it will travel, roughly: what the quotas and the progress count. */
  private static long size(Row row) {
    long bytes = ROW_OVERHEAD_BYTES;
    for (int i = 0; i < row.size(); i++) {
      Object v = row.get(i);
      bytes += v instanceof String s ? s.length() : v instanceof Bytes b ? b.length() : 8;
    }
    return bytes;
  }

  /** MariaDB's binlog position of the current snapshot (or of now outside one); null on servers without it. */
  private Scn snapshotPosition(Statement st) throws SQLException {
    String file = null;
    long position = -1;
    try (ResultSet rs = st.executeQuery("SHOW STATUS LIKE 'binlog_snapshot_%'")) {
      while (rs.next()) {
        if ("binlog_snapshot_file".equalsIgnoreCase(rs.getString(1))) {
          file = rs.getString(2);
        } else if ("binlog_snapshot_position".equalsIgnoreCase(rs.getString(1))) {
          position = Long.parseLong(rs.getString(2));
        }
      }
    }
    if (file == null || file.isEmpty() || position < 0) {
      return null;
    }
    if (gtidDomain != null) {
      // scn: gtid: the watermark is the sequence number of the domain's last transaction the snapshot sees
      try (PreparedStatement p = st.getConnection().prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
        p.setString(1, file);
        p.setLong(2, position);
        try (ResultSet rs = p.executeQuery()) {
          String set = rs.next() && rs.getString(1) != null ? rs.getString(1) : "";
          return Scn.ofSequence(GtidScns.sequence(gtidDomain, set));
        }
      }
    }
    return Scn.ofBinlog(BinlogNames.fileIndex(file), position);
  }

  private Scn masterStatus(Statement st) throws SQLException {
    if (gtidDomain != null) {
      throw new FetcherException("scn: gtid needs MariaDB, whose snapshots state their binlog position");
    }
    try {
      return masterStatus(st, "SHOW MASTER STATUS");
    } catch (java.sql.SQLSyntaxErrorException e) {
      return masterStatus(st, "SHOW BINARY LOG STATUS"); // MySQL 8.4 removed the older name
    }
  }

  private static Scn masterStatus(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      if (!rs.next()) {
        throw new FetcherException("the source has binary logging off: " + sql + " is empty");
      }
      return Scn.ofBinlog(BinlogNames.fileIndex(rs.getString(1)), rs.getLong(2));
    }
  }

  @Override
  public long estimatedRows(String database, String table) {
    try (Connection c = jdbc.connection(); PreparedStatement ps = c.prepareStatement(
        "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
      ps.setString(1, database);
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getObject(1) != null ? rs.getLong(1) : -1;
      }
    } catch (SQLException e) {
      return -1;
    }
  }

  private static String quote(String identifier) {
    return '`' + identifier.replace("`", "``") + '`';
  }
}
