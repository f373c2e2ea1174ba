package io.gridway.fetcher.mysql;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import io.gridway.fetcher.mysql.ColumnDdl.Declaration;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the binlog's table maps lack and a target needs — MariaDB's UUID/INET4/INET6 (BINARY(16/4/16) in a table map),
 * MariaDB's JSON (a LONGTEXT with a {@code json_valid} check), and each column's constant default — kept per table from
 * the DDL the binlog carries, in binlog order, so that every table version gets the declarations it had when its rows
 * were written, however far behind the fetcher reads. A table the fetcher has seen no CREATE TABLE for since it started
 * is read once with {@code SHOW CREATE TABLE} (README "Declared types and defaults": that is today's definition; a
 * column whose declaration does not fit the table map is left as the table map says).
 *
 * <p>Not thread-safe when it remembers (the binlog reader thread owns that one); the snapshot's instance remembers
 * nothing and reads the definition each time, which is right for a snapshot (it reads the table as it is now).
 */
final class DeclaredColumns {
  /** {@code SHOW CREATE TABLE}'s text, or null when the table does not exist. */
  @FunctionalInterface
  interface Definitions {
    Definitions NONE = (database, table) -> null;

    String showCreate(String database, String table) throws SQLException;
  }

  private static final Pattern CREATE = Pattern.compile("(?i)^CREATE\\s+(?:OR\\s+REPLACE\\s+)?TABLE\\b");
  private static final Pattern ALTER = Pattern.compile("(?i)^ALTER\\s+(?:ONLINE\\s+)?(?:IGNORE\\s+)?TABLE\\b");
  private static final Pattern DROP_OR_RENAME = Pattern.compile("(?i)^(?:DROP|RENAME)\\s+TABLES?\\b");
  /** A name field of the wire format holds at most 65,535 bytes of UTF-8; a longer default is not carried. */
  private static final int MAX_DEFAULT_CHARS = 65_535 / 3;

  private final Definitions definitions;
  private final boolean remember;
  private final Map<String, Map<String, Declaration>> tables = new HashMap<>();

  private DeclaredColumns(Definitions definitions, boolean remember) {
    this.definitions = definitions;
    this.remember = remember;
  }

  /** The binlog reader's: follows the DDL stream, reads a table's definition once when it has no DDL for it. */
  static DeclaredColumns following(Definitions definitions) {
    return new DeclaredColumns(definitions, true);
  }

  /** The snapshot's: the definition as it is now, read each time. */
  static DeclaredColumns current(Definitions definitions) {
    return new DeclaredColumns(definitions, false);
  }

  /** Knows nothing and reads nothing (tests of other parts). */
  static DeclaredColumns none() {
    return new DeclaredColumns(Definitions.NONE, false);
  }

  /** Follows one DDL statement of the binlog (called in binlog order, before the schema after it is built). */
  void onDdl(String sql, String defaultDatabase) {
    if (!remember) {
      return;
    }
    String s = DdlParser.strip(sql);
    DdlStatement ddl = DdlParser.parse(sql, defaultDatabase);
    if (CREATE.matcher(s).lookingAt() && ddl.changed().size() == 1) {
      String key = key(ddl.changed().get(0));
      Map<String, Declaration> columns = ColumnDdl.createTable(s);
      if (columns == null) {
        String like = ColumnDdl.likeSource(s);
        Map<String, Declaration> copied = like == null ? null : tables.get(key(DdlParser.name(like, defaultDatabase)));
        columns = copied == null ? null : new LinkedHashMap<>(copied);
      }
      if (columns == null) {
        tables.remove(key); // CREATE … SELECT: read the definition when the table's rows come
      } else {
        tables.put(key, columns);
      }
    } else if (ALTER.matcher(s).lookingAt() && !ddl.changed().isEmpty()) {
      String[] table = ddl.removed().isEmpty() ? ddl.changed().get(0) : ddl.removed().get(0);
      Map<String, Declaration> columns = tables.remove(key(table));
      if (columns != null) {
        ColumnDdl.alterTable(s, new ColumnDdl.MapEdits(columns));
        tables.put(key(ddl.changed().get(0)), columns);
      }
    } else if (DROP_OR_RENAME.matcher(s).lookingAt()) {
      List<Map<String, Declaration>> moved = new ArrayList<>();
      for (String[] removed : ddl.removed()) {
        moved.add(tables.remove(key(removed)));
      }
      if (ddl.changed().size() == moved.size()) { // RENAME TABLE a TO b, c TO d
        for (int i = 0; i < moved.size(); i++) {
          if (moved.get(i) != null) {
            tables.put(key(ddl.changed().get(i)), moved.get(i));
          }
        }
      }
    }
  }

  /** The columns with their declared types, JSON columns as {@link ColumnType#JSON}, and their defaults. */
  List<Column> apply(String database, String table, List<Column> columns) throws SQLException {
    Map<String, Declaration> declared = declarations(database, table);
    if (declared.isEmpty()) {
      return columns;
    }
    List<Column> out = new ArrayList<>(columns.size());
    for (Column c : columns) {
      Declaration d = declared.get(c.name().toLowerCase(Locale.ROOT));
      out.add(d == null ? c : declare(c, d));
    }
    return out;
  }

  private Map<String, Declaration> declarations(String database, String table) throws SQLException {
    String key = database + "." + table;
    Map<String, Declaration> columns = tables.get(key);
    if (columns == null) {
      String definition = definitions.showCreate(database, table);
      columns = definition == null ? null : ColumnDdl.createTable(definition);
      columns = columns == null ? Map.of() : columns;
      if (remember) {
        tables.put(key, new LinkedHashMap<>(columns));
      }
    }
    return columns;
  }

  static Column declare(Column c, Declaration d) {
    DeclaredType type = switch (d.typeWord() == null ? "" : d.typeWord()) {
      case "uuid" -> DeclaredType.UUID;
      case "inet4" -> DeclaredType.INET4;
      case "inet6" -> DeclaredType.INET6;
      default -> null;
    };
    if (type != null && (c.type() != ColumnType.BINARY || c.length() != type.length())) {
      type = null; // a declaration that does not fit the table map is stale: the binlog wins
    }
    Column out = d.json() && c.type() == ColumnType.TEXT ? c.asType(ColumnType.JSON) : c;
    return out.withSource(type, defaultText(d, out));
  }

  /**
   * The column's constant DEFAULT as text. MariaDB's implicit default of a NOT NULL column without one (0, '', the
   * first ENUM member…) is not carried: it would put a default on nearly every schema (README, "Declared types and
   * defaults").
   */
  private static String defaultText(Declaration d, Column c) {
    if (d.expressionDefault() || d.defaultValue() == null || c.type() == ColumnType.TIMESTAMP) {
      return null; // expressions differ per row or per server; TIMESTAMP defaults are written in the session's zone
    }
    return d.defaultValue().length() <= MAX_DEFAULT_CHARS ? d.defaultValue() : null;
  }

  private static String key(String[] table) {
    return table[0] + "." + table[1];
  }
}
