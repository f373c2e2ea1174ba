package io.gridway.fetcher.mysql;

import java.util.List;

/**
 * A table as information_schema describes it now: the fallback when the binlog does not carry full
 * metadata, and the source of the schema a SCHEMA_CHANGE event carries. Immutable.
 *
 * @param columns in ordinal order
 * @param primaryKey key column names in key order; empty when the table has no primary key
 */
record TableDescription(String database, String table, List<ColumnDescription> columns, List<String> primaryKey) {

  TableDescription {
    columns = List.copyOf(columns);
    primaryKey = List.copyOf(primaryKey);
  }

  String qualifiedName() {
    return database + "." + table;
  }

  /**
   * One row of information_schema.COLUMNS.
   *
   * @param dataType lower case, for example {@code varchar}
   * @param columnType the full type, for example {@code int(10) unsigned} or {@code enum('a','b')}
   * @param charset the character set name, or null for non-textual columns
   */
  record ColumnDescription(
      String name,
      String dataType,
      String columnType,
      String charset,
      boolean nullable,
      long charMaxLength,
      long numericPrecision,
      long numericScale,
      long datetimePrecision) {

    boolean unsigned() {
      return columnType.contains(" unsigned");
    }

    /** The member names of an ENUM or SET, from {@code enum('a','b''c')}. */
    List<String> members() {
      int open = columnType.indexOf('(');
      int close = columnType.lastIndexOf(')');
      if (open < 0 || close < open) {
        return List.of();
      }
      java.util.ArrayList<String> names = new java.util.ArrayList<>();
      String body = columnType.substring(open + 1, close);
      StringBuilder current = null;
      for (int i = 0; i < body.length(); i++) {
        char c = body.charAt(i);
        if (current == null) {
          if (c == '\'') {
            current = new StringBuilder();
          }
        } else if (c == '\'' && i + 1 < body.length() && body.charAt(i + 1) == '\'') {
          current.append('\'');
          i++;
        } else if (c == '\\' && i + 1 < body.length()) {
          current.append(body.charAt(++i));
        } else if (c == '\'') {
          names.add(current.toString());
          current = null;
        } else {
          current.append(c);
        }
      }
      return List.copyOf(names);
    }
  }
}
