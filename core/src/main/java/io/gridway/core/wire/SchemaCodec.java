package io.gridway.core.wire;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.WireFormatException.Reason;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** The SCHEMA payload (§3), both ways. Stateless and thread-safe. */
final class SchemaCodec {
  /** The smallest column: a non-empty name (2+1), type, flags, length, precision, scale, charset, members. */
  private static final int MIN_COLUMN_BYTES = 3 + 1 + 1 + 4 + 1 + 1 + 2 + 2;

  private SchemaCodec() {}

  static void write(TableSchema s, ByteBuffer out, Utf8.Encoder utf8) {
    String table = s.qualifiedName();
    out.putLong(s.id());
    FieldWriter.name(utf8, out, s.source(), table + ": source name");
    FieldWriter.name(utf8, out, s.database(), table + ": database name");
    FieldWriter.name(utf8, out, s.table(), table + ": table name");
    out.putShort((short) s.columnCount());
    for (Column c : s.columns()) {
      String what = table + "." + c.name();
      FieldWriter.name(utf8, out, c.name(), what + ": column name");
      out.put((byte) c.type().code());
      out.put((byte) ((c.unsigned() ? WireFormat.COLUMN_FLAG_UNSIGNED : 0) | (c.nullable() ? WireFormat.COLUMN_FLAG_NULLABLE : 0)
          | (c.declared() != null ? WireFormat.COLUMN_FLAG_DECLARED : 0) | (c.defaultValue() != null ? WireFormat.COLUMN_FLAG_DEFAULT : 0)));
      out.putInt(c.length());
      out.put((byte) c.precision());
      out.put((byte) c.scale());
      FieldWriter.name(utf8, out, c.charset() == null ? "" : c.charset(), what + ": charset");
      FieldWriter.u16(out, c.members().size(), what + ": member count");
      for (String member : c.members()) {
        FieldWriter.name(utf8, out, member, what + ": member");
      }
      if (c.declared() != null) {
        out.put((byte) c.declared().code());
      }
      if (c.defaultValue() != null) {
        FieldWriter.name(utf8, out, c.defaultValue(), what + ": default");
      }
    }
    FieldWriter.u16(out, s.keySize(), table + ": key column count");
    for (int k = 0; k < s.keySize(); k++) {
      out.putShort((short) s.keyIndex(k));
    }
  }

  /** Reads a SCHEMA payload and checks that its id is the fingerprint of its content. */
  static TableSchema read(PayloadCursor in) {
    long id = in.i64("schema id");
    String source = in.name("source");
    String database = in.name("database");
    String table = in.name("table");
    int count = in.u16("column count");
    if (count == 0) {
      throw in.malformed("schema of " + database + "." + table + " has no columns");
    }
    if ((long) count * MIN_COLUMN_BYTES > in.remaining()) {
      throw in.malformed(count + " columns cannot fit in the " + in.remaining() + " bytes left");
    }
    List<Column> columns = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      columns.add(readColumn(in));
    }
    int keyCount = in.u16("key count");
    if (2L * keyCount > in.remaining()) {
      throw in.malformed(keyCount + " key positions cannot fit in the " + in.remaining() + " bytes left");
    }
    List<String> key = new ArrayList<>(keyCount);
    for (int k = 0; k < keyCount; k++) {
      int position = in.u16("key position");
      if (position >= count) {
        throw in.malformed("key position " + position + " is past the " + count + " columns");
      }
      key.add(columns.get(position).name());
    }
    in.expectEnd("SCHEMA");
    TableSchema schema = TableSchema.of(source, database, table, columns, key);
    if (schema.id() != id) {
      throw new WireFormatException(Reason.SCHEMA_ID_MISMATCH, in.frameStart, "schema of " + schema.qualifiedName()
          + " has id " + Long.toHexString(id) + " but its content hashes to " + Long.toHexString(schema.id()));
    }
    return schema;
  }

  private static Column readColumn(PayloadCursor in) {
    String name = in.name("column name");
    int code = in.u8("type code");
    ColumnType type = ColumnType.ofCode(code);
    if (type == null) {
      throw in.malformed("column " + name + " has unknown type code " + code);
    }
    int flags = in.u8("column flags");
    if ((flags & ~(WireFormat.COLUMN_FLAG_UNSIGNED | WireFormat.COLUMN_FLAG_NULLABLE | WireFormat.COLUMN_FLAG_DECLARED
        | WireFormat.COLUMN_FLAG_DEFAULT)) != 0) {
      throw in.malformed("column " + name + " has undefined flag bits " + Integer.toHexString(flags));
    }
    long length = in.u32("column length");
    if (length > Integer.MAX_VALUE) {
      throw in.malformed("column " + name + " has length " + length);
    }
    int precision = in.u8("precision");
    int scale = in.u8("scale");
    String charset = in.name("charset");
    int memberCount = in.u16("member count");
    if (2L * memberCount > in.remaining()) {
      throw in.malformed("column " + name + ": " + memberCount + " members cannot fit in the " + in.remaining() + " bytes left");
    }
    List<String> members = new ArrayList<>(memberCount);
    for (int m = 0; m < memberCount; m++) {
      members.add(in.name("member"));
    }
    DeclaredType declared = null;
    if ((flags & WireFormat.COLUMN_FLAG_DECLARED) != 0) {
      int declaredCode = in.u8("declared type");
      declared = DeclaredType.ofCode(declaredCode);
      if (declared == null) {
        throw in.malformed("column " + name + " has unknown declared type code " + declaredCode);
      }
    }
    String defaultValue = (flags & WireFormat.COLUMN_FLAG_DEFAULT) != 0 ? in.name("default") : null;
    return new Column(name, type, (flags & WireFormat.COLUMN_FLAG_UNSIGNED) != 0,
        (flags & WireFormat.COLUMN_FLAG_NULLABLE) != 0, (int) length, precision, scale, charset, members, declared, defaultValue);
  }
}
