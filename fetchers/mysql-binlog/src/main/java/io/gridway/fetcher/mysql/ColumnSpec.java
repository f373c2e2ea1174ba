package io.gridway.fetcher.mysql;

import java.util.List;

/**
 * What the decoder table needs to know of one column, gathered from the table map (and information_schema
 * when the table map lacks it).
 *
 * @param table {@code db.table}, for messages
 * @param name the column's name
 * @param realType the binlog type with CHAR/ENUM/SET unpacked ({@link BinlogType})
 * @param meta the type's metadata from the table map
 * @param unsigned for numeric types
 * @param charset the column's character set; null for non-textual columns
 * @param members ENUM/SET member names in declaration order, empty otherwise
 */
record ColumnSpec(
    String table,
    String name,
    int realType,
    int meta,
    boolean nullable,
    boolean unsigned,
    MysqlCharset charset,
    List<String> members) {

  String qualifiedName() {
    return table + "." + name;
  }
}
