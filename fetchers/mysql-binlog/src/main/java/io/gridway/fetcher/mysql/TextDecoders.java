package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import io.gridway.core.event.Bytes;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * Strings and byte strings: CHAR/BINARY, VARCHAR/VARBINARY, TEXT/BLOB, JSON, GEOMETRY, ENUM and SET.
 *
 * <p>Textual values arrive as the column's bytes (the client's CHAR_AND_BINARY_AS_BYTE_ARRAY view, taken
 * further: this fetcher reads them straight from the event) and are decoded here with the column's own
 * character set from the table map, so utf8mb4 4-byte characters, latin1 and the rest come out as the
 * server would convert them. Text whose bytes already are that UTF-8 (well-formed in a UTF-8 set, ASCII
 * in a single-byte one) is kept as those bytes ({@link io.gridway.core.event.Utf8Text}) and decoded only
 * if read. Columns in the {@code binary} character set stay bytes ({@link Bytes}).
 * MySQL's binary JSON becomes JSON text (the client's {@link JsonBinary}); MariaDB's JSON is a LONGTEXT
 * and so arrives here as TEXT, exactly as written. Stateless.
 */
final class TextDecoders {
  private TextDecoders() {}

  /**
   * CHAR(n) or BINARY(n): a 1-byte length, 2 bytes past 255 bytes of maximum length. The binlog strips the
   * padding; BINARY gets its zero bytes back (as the server's own replica does), CHAR stays without its
   * trailing spaces (as the server returns it).
   */
  static TypedColumn fixed(ColumnSpec c) {
    int prefix = c.meta() < 256 ? 1 : 2;
    if (isBinary(c)) {
      int width = c.meta();
      return new TypedColumn(sized(c, ColumnType.BINARY, width), in -> {
        int length = (int) in.le(prefix);
        int at = in.advance(length);
        byte[] padded = new byte[Math.max(width, length)];
        System.arraycopy(in.array(), at, padded, 0, length);
        return Bytes.wrap(padded);
      });
    }
    return new TypedColumn(sized(c, ColumnType.CHAR, c.meta() / c.charset().maxBytesPerChar()), text(prefix, c.charset()));
  }

  /** VARCHAR(n) or VARBINARY(n): the metadata is the maximum length in bytes. */
  static TypedColumn variable(ColumnSpec c) {
    int prefix = c.meta() < 256 ? 1 : 2;
    if (isBinary(c)) {
      return new TypedColumn(sized(c, ColumnType.VARBINARY, c.meta()), bytes(prefix));
    }
    return new TypedColumn(sized(c, ColumnType.VARCHAR, c.meta() / c.charset().maxBytesPerChar()), text(prefix, c.charset()));
  }

  /** TEXT or BLOB of any size: the metadata is the width of the length (1 to 4 bytes). */
  static TypedColumn blob(ColumnSpec c) {
    if (isBinary(c)) {
      return new TypedColumn(NumericDecoders.plain(c, ColumnType.BLOB), bytes(c.meta()));
    }
    Column column = new Column(c.name(), ColumnType.TEXT, false, c.nullable(), 0, 0, 0, c.charset().name(), List.of());
    return new TypedColumn(column, text(c.meta(), c.charset()));
  }

  static TypedColumn geometry(ColumnSpec c) {
    return new TypedColumn(NumericDecoders.plain(c, ColumnType.GEOMETRY), bytes(c.meta()));
  }

  /** MySQL 5.7+ binary JSON, as JSON text. An empty value is JSON null (what the server shows for it). */
  static TypedColumn json(ColumnSpec c) {
    int prefix = c.meta();
    return new TypedColumn(NumericDecoders.plain(c, ColumnType.JSON), in -> {
      int length = (int) in.le(prefix);
      if (length == 0) {
        return "null";
      }
      int at = in.advance(length);
      try {
        return JsonBinary.parseAsString(Arrays.copyOfRange(in.array(), at, at + length));
      } catch (IOException e) {
        throw new UncheckedIOException("malformed binary JSON", e);
      }
    });
  }

  /** ENUM: the 1-based index of the member (0 is the empty string MySQL stores for an invalid value). */
  static TypedColumn enumeration(ColumnSpec c) {
    int size = c.meta();
    String[] names = c.members().toArray(new String[0]);
    Column column = new Column(c.name(), ColumnType.ENUM, false, c.nullable(), 0, 0, 0, charsetName(c), c.members());
    return new TypedColumn(column, in -> {
      int index = (int) in.le(size);
      if (index == 0) {
        return "";
      }
      if (index > names.length) {
        throw new IllegalStateException("ENUM index " + index + " beyond the " + names.length + " members");
      }
      return names[index - 1];
    });
  }

  /** SET: a bitmap of members, 1 to 8 bytes; the names joined by commas in declaration order. */
  static TypedColumn set(ColumnSpec c) {
    int size = c.meta();
    String[] names = c.members().toArray(new String[0]);
    Column column = new Column(c.name(), ColumnType.SET, false, c.nullable(), 0, 0, 0, charsetName(c), c.members());
    return new TypedColumn(column, in -> {
      long bits = in.le(size);
      if (bits == 0) {
        return "";
      }
      StringBuilder joined = new StringBuilder();
      for (int i = 0; i < names.length && bits != 0; i++, bits >>>= 1) {
        if ((bits & 1) != 0) {
          if (joined.length() > 0) {
            joined.append(',');
          }
          joined.append(names[i]);
        }
      }
      if (bits != 0) {
        throw new IllegalStateException("SET bitmap names members beyond the " + names.length + " declared");
      }
      return joined.toString();
    });
  }

  private static boolean isBinary(ColumnSpec c) {
    return c.charset() == null || c.charset().isBinary();
  }

  private static String charsetName(ColumnSpec c) {
    return c.charset() == null ? null : c.charset().name();
  }

  private static Column sized(ColumnSpec c, ColumnType type, int length) {
    String charset = type == ColumnType.BINARY || type == ColumnType.VARBINARY ? null : c.charset().name();
    return new Column(c.name(), type, false, c.nullable(), length, 0, 0, charset, List.of());
  }

  private static ColumnDecoder bytes(int prefix) {
    return in -> {
      int length = (int) in.le(prefix);
      int at = in.advance(length);
      return Bytes.wrap(Arrays.copyOfRange(in.array(), at, at + length));
    };
  }

  private static ColumnDecoder text(int prefix, MysqlCharset charset) {
    return in -> {
      int length = (int) in.le(prefix);
      int at = in.advance(length);
      return charset.text(in.array(), at, length); // the row event's own array, never written again
    };
  }
}
