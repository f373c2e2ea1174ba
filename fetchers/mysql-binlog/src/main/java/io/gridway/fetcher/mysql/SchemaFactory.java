package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.fetcher.mysql.TableDescription.ColumnDescription;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds schemas: from a table map (its full metadata, or information_schema for what the table map lacks),
 * and from information_schema alone (for the schema a SCHEMA_CHANGE event carries). Both paths give equal
 * columns for equal tables, so the schema a DDL announces is the one the following rows use. Immutable
 * and thread-safe.
 */
final class SchemaFactory {
  private final String source;
  private final DeclaredColumns declared;

  SchemaFactory(String source) {
    this(source, DeclaredColumns.none());
  }

  /** With the declared types and defaults the table maps lack (README "Declared types and defaults"). */
  SchemaFactory(String source, DeclaredColumns declared) {
    this.source = source;
    this.declared = declared;
  }

  /**
   * The shape of a table map's table.
   *
   * @param fallback information_schema's description, needed when the table map lacks full metadata
   * @throws FetcherException for an unknown column type or an undecodable character set, or when the
   *     fallback no longer matches the table map (the table changed since this binlog position)
   * @throws SQLException when a table's definition had to be read and could not be
   */
  TableShape fromTableMap(TableMap map, Collations collations, TableDescription fallback) throws SQLException {
    int count = map.columnCount();
    if (!map.hasFullMetadata()) {
      if (fallback == null) {
        throw new FetcherException(map.qualifiedName() + ": the binlog carries no column names and information_schema"
            + " has no such table; set binlog_row_metadata=FULL on the server");
      }
      if (fallback.columns().size() != count) {
        throw new FetcherException(map.qualifiedName() + ": the binlog's table map has " + count
            + " columns but information_schema now has " + fallback.columns().size()
            + " (the table changed after this binlog position); set binlog_row_metadata=FULL on the server so that"
            + " old events decode with their own columns");
      }
    }
    List<Column> columns = new ArrayList<>(count);
    ColumnDecoder[] decoders = new ColumnDecoder[count];
    for (int i = 0; i < count; i++) {
      ColumnDescription described = map.hasFullMetadata() ? null : fallback.columns().get(i);
      TypedColumn typed = ColumnDecoders.forColumn(spec(map, i, collations, described), i);
      columns.add(typed.column());
      decoders[i] = typed.decoder();
    }
    List<String> key = new ArrayList<>();
    if (map.hasFullMetadata()) {
      for (int index : map.primaryKey()) {
        key.add(columns.get(index).name());
      }
    } else {
      key.addAll(fallback.primaryKey());
    }
    // declared types change no decoder: UUID/INET stay the table map's bytes, JSON the column's text
    return new TableShape(schema(map.database(), map.table(), declared.apply(map.database(), map.table(), columns), key), decoders);
  }

  private ColumnSpec spec(TableMap map, int i, Collations collations, ColumnDescription described) {
    int type = map.realTypes()[i];
    String name = described != null ? described.name() : map.names()[i];
    boolean unsigned = map.unsigned() != null ? map.unsigned()[i] : described.unsigned();
    MysqlCharset charset = null;
    if (ColumnDecoders.needsCharset(type) || BinlogType.isEnumOrSet(type)) {
      String charsetName = map.collations() != null && map.collations()[i] >= 0
          ? collations.charsetOf(map.collations()[i])
          : described != null ? described.charset() : null;
      if (charsetName == null && map.collations() != null && map.collations()[i] >= 0) {
        throw new FetcherException(map.qualifiedName() + "." + name + ": unknown collation id " + map.collations()[i]);
      }
      charset = charset(map.qualifiedName(), name, charsetName);
    }
    List<String> members = List.of();
    if (BinlogType.isEnumOrSet(type)) {
      members = map.members() != null ? decode(map.members().get(i), charset) : described.members();
    }
    return new ColumnSpec(map.qualifiedName(), name, type, map.meta()[i], map.nullable()[i], unsigned, charset, members);
  }

  private static List<String> decode(List<byte[]> raw, MysqlCharset charset) {
    List<String> names = new ArrayList<>(raw.size());
    for (byte[] bytes : raw) {
      names.add(charset.decode(bytes, 0, bytes.length));
    }
    return names;
  }

  private static MysqlCharset charset(String table, String column, String name) {
    if (name == null) {
      return MysqlCharset.forName("binary");
    }
    MysqlCharset charset = MysqlCharset.forName(name);
    if (charset == null) {
      throw new FetcherException(table + "." + column + " uses character set " + name
          + ", which this fetcher cannot decode; exclude the table or convert the column to utf8mb4");
    }
    return charset;
  }

  /**
   * The schema information_schema describes, as the table map of the same table would give it.
   *
   * @throws FetcherException for a data type this fetcher does not know
   * @throws SQLException when the table's definition had to be read and could not be
   */
  TableSchema fromDescription(TableDescription table) throws SQLException {
    List<Column> columns = new ArrayList<>(table.columns().size());
    for (ColumnDescription c : table.columns()) {
      columns.add(column(table.qualifiedName(), c));
    }
    return schema(table.database(), table.table(), declared.apply(table.database(), table.table(), columns), table.primaryKey());
  }

  private static Column column(String table, ColumnDescription c) {
    String type = c.dataType().toLowerCase(Locale.ROOT);
    boolean nullable = c.nullable();
    int chars = (int) Math.min(Integer.MAX_VALUE, c.charMaxLength());
    return switch (type) {
      case "tinyint" -> integer(c, ColumnType.TINYINT);
      case "smallint" -> integer(c, ColumnType.SMALLINT);
      case "mediumint" -> integer(c, ColumnType.MEDIUMINT);
      case "int", "integer" -> integer(c, ColumnType.INT);
      case "bigint" -> integer(c, ColumnType.BIGINT);
      case "decimal", "numeric" -> new Column(c.name(), ColumnType.DECIMAL, false, nullable, 0,
          (int) c.numericPrecision(), (int) c.numericScale(), null, List.of());
      case "float" -> plain(c, ColumnType.FLOAT);
      case "double", "real", "double precision" -> plain(c, ColumnType.DOUBLE);
      case "bit" -> new Column(c.name(), ColumnType.BIT, false, nullable, (int) c.numericPrecision(), 0, 0, null, List.of());
      case "year" -> plain(c, ColumnType.YEAR);
      case "date" -> plain(c, ColumnType.DATE);
      case "time" -> temporal(c, ColumnType.TIME);
      case "datetime" -> temporal(c, ColumnType.DATETIME);
      case "timestamp" -> temporal(c, ColumnType.TIMESTAMP);
      case "char" -> text(table, c, ColumnType.CHAR, chars);
      case "varchar" -> text(table, c, ColumnType.VARCHAR, chars);
      case "tinytext", "text", "mediumtext", "longtext" -> text(table, c, ColumnType.TEXT, 0);
      case "binary" -> new Column(c.name(), ColumnType.BINARY, false, nullable, chars, 0, 0, null, List.of());
      case "varbinary" -> new Column(c.name(), ColumnType.VARBINARY, false, nullable, chars, 0, 0, null, List.of());
      case "tinyblob", "blob", "mediumblob", "longblob" -> plain(c, ColumnType.BLOB);
      case "json" -> plain(c, ColumnType.JSON);
      case "enum" -> new Column(c.name(), ColumnType.ENUM, false, nullable, 0, 0, 0, c.charset(), c.members());
      case "set" -> new Column(c.name(), ColumnType.SET, false, nullable, 0, 0, 0, c.charset(), c.members());
      case "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
          "geometrycollection", "geomcollection" -> plain(c, ColumnType.GEOMETRY);
      // MariaDB's INET6/UUID/INET4 are fixed-size binary strings in the binlog
      case "inet6", "uuid" -> new Column(c.name(), ColumnType.BINARY, false, nullable, 16, 0, 0, null, List.of());
      case "inet4" -> new Column(c.name(), ColumnType.BINARY, false, nullable, 4, 0, 0, null, List.of());
      default -> throw new FetcherException(table + "." + c.name() + " has data type " + c.dataType()
          + ", which this fetcher cannot decode; exclude the table or change the column's type");
    };
  }

  private static Column integer(ColumnDescription c, ColumnType type) {
    return new Column(c.name(), type, c.unsigned(), c.nullable(), 0, 0, 0, null, List.of());
  }

  private static Column plain(ColumnDescription c, ColumnType type) {
    return new Column(c.name(), type, false, c.nullable(), 0, 0, 0, null, List.of());
  }

  private static Column temporal(ColumnDescription c, ColumnType type) {
    return new Column(c.name(), type, false, c.nullable(), 0, 0, (int) c.datetimePrecision(), null, List.of());
  }

  private static Column text(String table, ColumnDescription c, ColumnType type, int length) {
    if (c.charset() == null || "binary".equals(c.charset())) {
      ColumnType binary = switch (type) {
        case CHAR -> ColumnType.BINARY;
        case VARCHAR -> ColumnType.VARBINARY;
        default -> ColumnType.BLOB;
      };
      return new Column(c.name(), binary, false, c.nullable(), binary == ColumnType.BLOB ? 0 : length, 0, 0, null, List.of());
    }
    charset(table, c.name(), c.charset());
    return new Column(c.name(), type, false, c.nullable(), length, 0, 0, c.charset(), List.of());
  }

  /** The same columns and key under another name (RENAME TABLE). */
  TableSchema renamed(TableSchema schema, String database, String table) {
    return schema(database, table, schema.columns(), schema.primaryKey());
  }

  /**
   * The stand-in schema of a table the fetcher never saw and that no longer exists (a DROP read long after
   * the fact): core's schemas need at least one column. Its single column is named {@value #UNKNOWN_COLUMN}.
   */
  TableSchema placeholder(String database, String table) {
    return schema(database, table, List.of(Column.of(UNKNOWN_COLUMN, ColumnType.BLOB)), List.of());
  }

  static final String UNKNOWN_COLUMN = "__gridway_unknown";

  private TableSchema schema(String database, String table, List<Column> columns, List<String> key) {
    return TableSchema.of(source, database, table, columns, key);
  }
}
