package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.TableSchema;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The table ids of the binlog and what they mean now. A server writes a table-map event before every
 * row event, with the column names when {@code binlog_row_metadata=FULL}; parsing each of them was about a
 * third of a bare client's work. Here a table map is parsed once per table id and definition: a repeat
 * is recognised by comparing its raw bytes with the cached ones, and its shape (schema and column
 * decoders) is reused. A changed definition (DDL gives the table a new id, or new bytes) is parsed and
 * gets a new shape, hence a new schema id.
 *
 * <p>Not thread-safe: used by the binlog reader thread only. Stays valid across reconnects (the raw
 * comparison also protects against ids a restarted server hands out again).
 */
final class TableRegistry {
  private static final int MAX_TABLE_IDS = 10_000;

  private final TableFilter filter;
  private final SchemaFactory schemas;
  private final TableDescriber describer;
  // least recently used first: ids of dropped or altered tables age out, the ones in use never do
  private final Map<Long, MappedTable> byId = new LinkedHashMap<>(64, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, MappedTable> eldest) {
      return size() > MAX_TABLE_IDS;
    }
  };
  private final Map<String, MappedTable> byName = new HashMap<>();
  private final Map<String, TableSchema> latest = new HashMap<>(); // from table maps and DDL, whichever came last
  private Collations collations = Collations.builtIn();

  TableRegistry(TableFilter filter, SchemaFactory schemas, TableDescriber describer) {
    this.filter = filter;
    this.schemas = schemas;
    this.describer = describer;
  }

  void useCollations(Collations serverCollations) {
    this.collations = serverCollations;
  }

  /** Handles a table-map event body: the cached table when the bytes repeat, else a newly parsed one. */
  EventData onTableMap(byte[] body) {
    long id = TableMapParser.tableId(body);
    MappedTable cached = byId.get(id);
    if (cached != null && Arrays.equals(cached.raw(), body)) {
      return cached;
    }
    try {
      MappedTable table = map(id, body);
      remember(table);
      return table;
    } catch (FetcherException e) {
      return new DecodeFailure(e, true);
    } catch (SQLException e) {
      return new DecodeFailure(new IllegalStateException("information_schema read failed: " + Jdbc.rootMessage(e), e), false);
    } catch (RuntimeException e) {
      return new DecodeFailure(new FetcherException("malformed table-map event for table id " + id + ": " + e, e), true);
    }
  }

  private MappedTable map(long id, byte[] body) throws SQLException {
    String[] names = TableMapParser.names(body);
    if (!filter.captures(names[0], names[1]) && !OriginMarker.isMarkerTable(names[1])) {
      return new MappedTable(id, body, names[0], names[1], null);
    }
    TableMap map = TableMapParser.parse(body);
    TableDescription fallback = map.hasFullMetadata() ? null : describer.describe(map.database(), map.table());
    TableShape shape = schemas.fromTableMap(map, collations, fallback);
    MappedTable previous = byName.get(map.qualifiedName());
    if (previous != null && previous.captured() && previous.shape().schema().equals(shape.schema())) {
      shape = previous.shape(); // same definition under a new id: keep the decoders (and one schema object)
    }
    return new MappedTable(id, body, names[0], names[1], shape);
  }

  private void remember(MappedTable table) {
    if (table.captured()) {
      latest.put(table.qualifiedName(), table.shape().schema());
    }
    MappedTable previous = byName.put(table.qualifiedName(), table);
    if (previous != null && previous.tableId() != table.tableId()) {
      byId.remove(previous.tableId());
    }
    byId.put(table.tableId(), table);
  }

  /** The table a row event names, or null when no table map for it has been seen. */
  MappedTable byId(long tableId) {
    return byId.get(tableId);
  }

  /** The newest schema seen for a table (in a table map or announced after a DDL), or null. */
  TableSchema lastSchema(String database, String table) {
    return latest.get(database + "." + table);
  }

  /** Records the schema a DDL announced, as the newest known for its table. */
  void announce(TableSchema schema) {
    latest.put(schema.qualifiedName(), schema);
  }

  boolean captures(String database, String table) {
    return filter.captures(database, table);
  }

  /** Forgets a table's name after RENAME or DROP, so a new table of that name is read afresh. */
  void forget(String database, String table) {
    latest.remove(database + "." + table);
    MappedTable previous = byName.remove(database + "." + table);
    if (previous != null) {
      byId.remove(previous.tableId());
    }
  }
}
