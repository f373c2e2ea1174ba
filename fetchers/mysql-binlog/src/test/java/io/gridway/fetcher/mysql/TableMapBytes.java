package io.gridway.fetcher.mysql;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes table-map event bodies the way a server does, for tests. */
final class TableMapBytes {
  private final ByteArrayOutputStream columnTypes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream columnMeta = new ByteArrayOutputStream();
  private final ByteArrayOutputStream optional = new ByteArrayOutputStream();
  private final long tableId;
  private final String database;
  private final String table;
  private int columns;
  private long nullable;

  TableMapBytes(long tableId, String database, String table) {
    this.tableId = tableId;
    this.database = database;
    this.table = table;
  }

  TableMapBytes column(int type, byte[] meta, boolean isNullable) {
    columnTypes.write(type);
    columnMeta.writeBytes(meta);
    if (isNullable) {
      nullable |= 1L << columns;
    }
    columns++;
    return this;
  }

  TableMapBytes field(int type, byte[] value) {
    optional.write(type);
    optional.writeBytes(packed(value.length));
    optional.writeBytes(value);
    return this;
  }

  TableMapBytes names(String... names) {
    ByteArrayOutputStream v = new ByteArrayOutputStream();
    for (String n : names) {
      byte[] b = n.getBytes(StandardCharsets.UTF_8);
      v.writeBytes(packed(b.length));
      v.writeBytes(b);
    }
    return field(4, v.toByteArray());
  }

  TableMapBytes primaryKey(int... columns) {
    ByteArrayOutputStream v = new ByteArrayOutputStream();
    for (int c : columns) {
      v.writeBytes(packed(c));
    }
    return field(8, v.toByteArray());
  }

  TableMapBytes columnCharsets(int... collations) {
    ByteArrayOutputStream v = new ByteArrayOutputStream();
    for (int c : collations) {
      v.writeBytes(packed(c));
    }
    return field(3, v.toByteArray());
  }

  TableMapBytes enumValues(List<String> members) {
    ByteArrayOutputStream v = new ByteArrayOutputStream();
    v.writeBytes(packed(members.size()));
    for (String m : members) {
      byte[] b = m.getBytes(StandardCharsets.UTF_8);
      v.writeBytes(packed(b.length));
      v.writeBytes(b);
    }
    return field(6, v.toByteArray());
  }

  byte[] build() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(DecodersTest.le(tableId, 6));
    out.writeBytes(new byte[] {1, 0});
    byte[] db = database.getBytes(StandardCharsets.UTF_8);
    out.write(db.length);
    out.writeBytes(db);
    out.write(0);
    byte[] t = table.getBytes(StandardCharsets.UTF_8);
    out.write(t.length);
    out.writeBytes(t);
    out.write(0);
    out.writeBytes(packed(columns));
    out.writeBytes(columnTypes.toByteArray());
    out.writeBytes(packed(columnMeta.size()));
    out.writeBytes(columnMeta.toByteArray());
    out.writeBytes(DecodersTest.le(nullable, (columns + 7) / 8));
    out.writeBytes(optional.toByteArray());
    return out.toByteArray();
  }

  static byte[] packed(long value) {
    if (value < 251) {
      return new byte[] {(byte) value};
    }
    return DecodersTest.concat(new byte[] {(byte) 252}, DecodersTest.le(value, 2));
  }
}
