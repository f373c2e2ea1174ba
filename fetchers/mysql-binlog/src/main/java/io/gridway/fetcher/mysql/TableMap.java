package io.gridway.fetcher.mysql;

import java.util.List;

/**
 * A decoded table-map event: a table's id in this binlog, its name, and per column the real binlog type,
 * the type's metadata and, when the server logs {@code binlog_row_metadata=FULL}, names, signedness,
 * collations, ENUM/SET members and the primary key.
 *
 * <p>For CHAR/BINARY, ENUM and SET the binlog type is STRING with the real type inside the metadata;
 * {@link #realTypes} has it unpacked and {@link #meta} then holds the byte length (CHAR/BINARY) or the
 * storage size (ENUM 1–2, SET 1–8). Arrays are never modified after parsing; treat as immutable.
 *
 * @param names column names, or null when the server did not log them
 * @param unsigned per column, or null when not logged
 * @param collations per column the collation id (-1 for columns without one), or null when not logged
 * @param members per column the ENUM/SET member names as the server stored them, in the column's
 *     character set (null entries for other columns), or null when not logged
 * @param primaryKey key column positions in key order, or null when not logged (an empty list: no key)
 */
record TableMap(
    long tableId,
    String database,
    String table,
    int[] realTypes,
    int[] meta,
    boolean[] nullable,
    String[] names,
    boolean[] unsigned,
    int[] collations,
    List<List<byte[]>> members,
    List<Integer> primaryKey) {

  int columnCount() {
    return realTypes.length;
  }

  /**
   * Whether the metadata suffices to build a schema without asking information_schema: the server logged
   * {@code binlog_row_metadata=FULL} (column names are only logged then).
   */
  boolean hasFullMetadata() {
    return names != null && unsigned != null && collations != null && (members != null || !hasEnumOrSet());
  }

  private boolean hasEnumOrSet() {
    for (int type : realTypes) {
      if (BinlogType.isEnumOrSet(type)) {
        return true;
      }
    }
    return false;
  }

  String qualifiedName() {
    return database + "." + table;
  }
}
