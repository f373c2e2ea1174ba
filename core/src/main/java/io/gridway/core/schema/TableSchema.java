package io.gridway.core.schema;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One version of a table's shape: its columns in source order and its primary key.
 *
 * <p>The {@link #id()} is a fingerprint of everything else (source, database, table, columns, key),
 * so every relay replica that reads the same source derives the same id for the same version, and
 * a response is byte-identical whichever replica served it. A change in any column gives a new id.
 *
 * <p>Immutable and thread-safe.
 */
public final class TableSchema {
  private final long id;
  private final String source;
  private final String database;
  private final String table;
  private final List<Column> columns;
  private final List<String> primaryKey;
  private final int[] keyIndexes;
  private final Map<String, Integer> indexByName;

  private TableSchema(String source, String database, String table, List<Column> columns, List<String> primaryKey) {
    this.source = requireName(source, "source");
    this.database = requireName(database, "database");
    this.table = requireName(table, "table");
    if (columns == null || hasNull(columns)) {
      throw new IllegalArgumentException(qualifiedName() + ": " + (columns == null ? "no column list" : "a null column")
          + " (a table that was dropped, or that the source does not know, has no schema to build)");
    }
    if (primaryKey == null || hasNull(primaryKey)) {
      throw new IllegalArgumentException(qualifiedName() + ": " + (primaryKey == null ? "no key list" : "a null key column")
          + " (pass an empty list for a table without a primary key)");
    }
    this.columns = List.copyOf(columns);
    this.primaryKey = List.copyOf(primaryKey);
    if (this.columns.isEmpty()) {
      throw new IllegalArgumentException(qualifiedName() + ": a table needs at least one column");
    }
    if (this.columns.size() > 0xFFFF) {
      throw new IllegalArgumentException(qualifiedName() + ": more than 65535 columns");
    }
    this.indexByName = new HashMap<>();
    for (int i = 0; i < this.columns.size(); i++) {
      if (indexByName.put(this.columns.get(i).name(), i) != null) {
        throw new IllegalArgumentException(qualifiedName() + ": duplicate column " + this.columns.get(i).name());
      }
    }
    this.keyIndexes = new int[this.primaryKey.size()];
    for (int k = 0; k < keyIndexes.length; k++) {
      Integer index = indexByName.get(this.primaryKey.get(k));
      if (index == null) {
        throw new IllegalArgumentException(qualifiedName() + ": key column " + this.primaryKey.get(k) + " is not a column");
      }
      keyIndexes[k] = index;
    }
    this.id = fingerprint();
  }

  /**
   * A schema version. The key may be empty: a table without a primary key is still captured, and
   * appliers then match rows on all columns.
   */
  public static TableSchema of(String source, String database, String table, List<Column> columns, List<String> primaryKey) {
    return new TableSchema(source, database, table, columns, primaryKey);
  }

  private static boolean hasNull(List<?> list) {
    for (Object o : list) { // List.of(...).contains(null) would throw
      if (o == null) {
        return true;
      }
    }
    return false;
  }

  private static String requireName(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(what + " name is empty");
    }
    return value;
  }

  public long id() {
    return id;
  }

  public String source() {
    return source;
  }

  public String database() {
    return database;
  }

  public String table() {
    return table;
  }

  /** {@code database.table}. */
  public String qualifiedName() {
    return database + "." + table;
  }

  public List<Column> columns() {
    return columns;
  }

  public int columnCount() {
    return columns.size();
  }

  public Column column(int index) {
    return columns.get(index);
  }

  /** The position of a column, or -1 when the table has no such column. */
  public int indexOf(String columnName) {
    Integer index = indexByName.get(columnName);
    return index == null ? -1 : index;
  }

  public List<String> primaryKey() {
    return primaryKey;
  }

  public boolean hasPrimaryKey() {
    return keyIndexes.length > 0;
  }

  /** Positions of the key columns, in key order. */
  public int[] keyIndexes() {
    return keyIndexes.clone();
  }

  public int keySize() {
    return keyIndexes.length;
  }

  /** The position of the k-th key column. */
  public int keyIndex(int k) {
    return keyIndexes[k];
  }

  private long fingerprint() {
    StringBuilder canonical = new StringBuilder(64 + columns.size() * 32);
    canonical.append("gridway-schema-1\n").append(source).append('\n').append(database).append('\n').append(table).append('\n');
    for (Column c : columns) {
      canonical
          .append(c.name()).append('\t').append(c.type().name()).append('\t').append(c.unsigned())
          .append('\t').append(c.nullable()).append('\t').append(c.length()).append('\t').append(c.precision())
          .append('\t').append(c.scale()).append('\t').append(c.charset() == null ? "" : c.charset()).append('\t').append(String.join(",", c.members()));
      // Appended only when present, so that the id of every schema without them is what it always was.
      if (c.declared() != null) {
        canonical.append("\tdeclared=").append(c.declared().name());
      }
      if (c.defaultValue() != null) {
        canonical.append("\tdefault=").append(c.defaultValue().getBytes(StandardCharsets.UTF_8).length).append(':')
            .append(c.defaultValue());
      }
      canonical.append('\n');
    }
    canonical.append("key\t").append(String.join(",", primaryKey));
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      long value = 0;
      for (int i = 0; i < 8; i++) {
        value = (value << 8) | (digest[i] & 0xFF);
      }
      return value;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableSchema other
        && id == other.id
        && source.equals(other.source)
        && database.equals(other.database)
        && table.equals(other.table)
        && columns.equals(other.columns)
        && primaryKey.equals(other.primaryKey);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "TableSchema[" + source + ":" + qualifiedName() + " id=" + Long.toUnsignedString(id, 16)
        + " columns=" + columns.size() + " key=" + primaryKey + "]";
  }
}
