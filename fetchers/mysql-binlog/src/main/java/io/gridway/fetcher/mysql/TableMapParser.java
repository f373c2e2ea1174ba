package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetcherException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses the body of a table-map event, including the optional metadata of {@code
 * binlog_row_metadata=MINIMAL/FULL}. Layout (MySQL and MariaDB agree):
 *
 * <pre>
 *   table id u48 | flags u16 | db len u8, db, 0 | table len u8, table, 0 | column count (packed)
 *   column types (1 byte each) | metadata length (packed), per-type metadata | null bitmap
 *   optional metadata: (field type u8, length (packed), value)*
 * </pre>
 *
 * Stateless and thread-safe.
 */
final class TableMapParser {
  private static final int SIGNEDNESS = 1;
  private static final int DEFAULT_CHARSET = 2;
  private static final int COLUMN_CHARSET = 3;
  private static final int COLUMN_NAME = 4;
  private static final int SET_STR_VALUE = 5;
  private static final int ENUM_STR_VALUE = 6;
  private static final int SIMPLE_PRIMARY_KEY = 8;
  private static final int PRIMARY_KEY_WITH_PREFIX = 9;
  private static final int ENUM_AND_SET_DEFAULT_CHARSET = 10;
  private static final int ENUM_AND_SET_COLUMN_CHARSET = 11;

  private TableMapParser() {}

  /** The table id of a table-map (or rows) event body, without parsing the rest. */
  static long tableId(byte[] body) {
    return new ByteReader(body).le(6);
  }

  /** The database and table name, without parsing the columns (enough to apply the table filter). */
  static String[] names(byte[] body) {
    ByteReader in = new ByteReader(body);
    in.advance(8);
    in.u8();
    String database = in.utf8z();
    in.u8();
    return new String[] {database, in.utf8z()};
  }

  /**
   * The whole table map.
   *
   * @throws FetcherException when a column has a type this fetcher cannot decode
   */
  static TableMap parse(byte[] body) {
    ByteReader in = new ByteReader(body);
    long tableId = in.le(6);
    in.u16(); // flags
    in.u8();
    String database = in.utf8z();
    in.u8();
    String table = in.utf8z();
    int columns = in.packedInt();
    int[] types = new int[columns];
    for (int i = 0; i < columns; i++) {
      types[i] = in.u8();
    }
    int metaLength = in.packedInt();
    int metaEnd = in.position() + metaLength;
    int[] realTypes = new int[columns];
    int[] meta = new int[columns];
    for (int i = 0; i < columns; i++) {
      readColumnMeta(in, types[i], i, database + "." + table, realTypes, meta);
    }
    if (in.position() != metaEnd) {
      throw new IllegalStateException(database + "." + table + ": column metadata is " + metaLength
          + " bytes but the column types account for " + (in.position() - metaEnd + metaLength));
    }
    boolean[] nullable = bitmapLsbFirst(in, columns);
    Optional optional = new Optional(realTypes);
    while (in.hasRemaining()) {
      int field = in.u8();
      int length = in.packedInt();
      ByteReader value = new ByteReader(in.array(), in.advance(length), length);
      optional.read(field, value);
    }
    return optional.toTableMap(tableId, database, table, realTypes, meta, nullable);
  }

  private static void readColumnMeta(ByteReader in, int type, int column, String table, int[] realTypes, int[] meta) {
    realTypes[column] = type;
    switch (type) {
      case BinlogType.FLOAT, BinlogType.DOUBLE, BinlogType.BLOB, BinlogType.TINY_BLOB, BinlogType.MEDIUM_BLOB,
          BinlogType.LONG_BLOB, BinlogType.JSON, BinlogType.GEOMETRY,
          BinlogType.TIME2, BinlogType.DATETIME2, BinlogType.TIMESTAMP2 -> meta[column] = in.u8();
      case BinlogType.BIT, BinlogType.VARCHAR, BinlogType.VAR_STRING, BinlogType.NEWDECIMAL -> meta[column] = in.u16();
      case BinlogType.STRING, BinlogType.ENUM, BinlogType.SET -> {
        int byte0 = in.u8();
        int byte1 = in.u8();
        if ((byte0 & 0x30) != 0x30) {
          // CHAR longer than 255 bytes: two length bits hide in the type byte (sql/field.cc, Field_string)
          realTypes[column] = byte0 | 0x30;
          meta[column] = byte1 | (((byte0 & 0x30) ^ 0x30) << 4);
        } else {
          realTypes[column] = byte0 == BinlogType.ENUM || byte0 == BinlogType.SET ? byte0 : BinlogType.STRING;
          meta[column] = byte1;
        }
      }
      case BinlogType.TINY, BinlogType.SHORT, BinlogType.INT24, BinlogType.LONG, BinlogType.LONGLONG,
          BinlogType.DATE, BinlogType.TIME, BinlogType.DATETIME, BinlogType.TIMESTAMP, BinlogType.YEAR -> meta[column] = 0;
      default -> throw unknownType(table, column, type);
    }
  }

  static FetcherException unknownType(String table, int column, int type) {
    return new FetcherException(table + ": column #" + (column + 1) + " has binlog column type " + type
        + " (" + BinlogType.name(type) + "), which this fetcher cannot decode; exclude the table (exclude: ["
        + table + "]) or change the column's type");
  }

  /** A bitmap whose bit i is bit (i mod 8) of byte i/8, as null and column bitmaps are. */
  static boolean[] bitmapLsbFirst(ByteReader in, int bits) {
    boolean[] set = new boolean[bits];
    int at = in.advance((bits + 7) >>> 3);
    byte[] buf = in.array();
    for (int i = 0; i < bits; i++) {
      set[i] = (buf[at + (i >>> 3)] & (1 << (i & 7))) != 0;
    }
    return set;
  }

  /** The optional metadata fields, collected and then spread over the columns. */
  private static final class Optional {
    private final int[] realTypes;
    private boolean[] unsignedNumeric;
    private int defaultCollation = -1;
    private final List<int[]> collationExceptions = new ArrayList<>();
    private List<Integer> columnCollations;
    private int enumSetDefaultCollation = -1;
    private final List<int[]> enumSetCollationExceptions = new ArrayList<>();
    private List<Integer> enumSetColumnCollations;
    private String[] names;
    private final List<List<byte[]>> setValues = new ArrayList<>();
    private final List<List<byte[]>> enumValues = new ArrayList<>();
    private boolean sawSetValues;
    private boolean sawEnumValues;
    private List<Integer> primaryKey;
    private boolean sawCharsets;

    Optional(int[] realTypes) {
      this.realTypes = realTypes;
    }

    void read(int field, ByteReader value) {
      switch (field) {
        case SIGNEDNESS -> unsignedNumeric = bitmapMsbFirst(value, count(BinlogType::isNumeric));
        case DEFAULT_CHARSET -> {
          sawCharsets = true;
          defaultCollation = value.packedInt();
          while (value.hasRemaining()) {
            collationExceptions.add(new int[] {value.packedInt(), value.packedInt()});
          }
        }
        case COLUMN_CHARSET -> {
          sawCharsets = true;
          columnCollations = packedList(value);
        }
        case COLUMN_NAME -> {
          names = new String[realTypes.length];
          for (int i = 0; i < names.length; i++) {
            names[i] = value.utf8(value.packedInt());
          }
        }
        case SET_STR_VALUE -> {
          sawSetValues = true;
          readMembers(value, setValues);
        }
        case ENUM_STR_VALUE -> {
          sawEnumValues = true;
          readMembers(value, enumValues);
        }
        case SIMPLE_PRIMARY_KEY -> primaryKey = packedList(value);
        case PRIMARY_KEY_WITH_PREFIX -> {
          List<Integer> key = new ArrayList<>();
          while (value.hasRemaining()) {
            key.add(value.packedInt());
            value.packedInt(); // prefix length: the key column is the whole column either way
          }
          primaryKey = key;
        }
        case ENUM_AND_SET_DEFAULT_CHARSET -> {
          sawCharsets = true;
          enumSetDefaultCollation = value.packedInt();
          while (value.hasRemaining()) {
            enumSetCollationExceptions.add(new int[] {value.packedInt(), value.packedInt()});
          }
        }
        case ENUM_AND_SET_COLUMN_CHARSET -> {
          sawCharsets = true;
          enumSetColumnCollations = packedList(value);
        }
        default -> { } // geometry types, visibility, vector dimensions, future fields: nothing we need
      }
    }

    TableMap toTableMap(long tableId, String database, String table, int[] types, int[] meta, boolean[] nullable) {
      int columns = types.length;
      boolean[] unsigned = null;
      if (unsignedNumeric != null || count(BinlogType::isNumeric) == 0) {
        unsigned = new boolean[columns];
        for (int i = 0, n = 0; i < columns; i++) {
          if (BinlogType.isNumeric(types[i])) {
            unsigned[i] = unsignedNumeric != null && n < unsignedNumeric.length && unsignedNumeric[n];
            n++;
          }
        }
      }
      int[] collations = null;
      boolean needsCharsets = count(BinlogType::hasCharset) + count(BinlogType::isEnumOrSet) > 0;
      if (sawCharsets || !needsCharsets) {
        collations = new int[columns];
        Arrays.fill(collations, -1);
        spread(collations, BinlogType::hasCharset, defaultCollation, collationExceptions, columnCollations);
        spread(collations, BinlogType::isEnumOrSet, enumSetDefaultCollation, enumSetCollationExceptions, enumSetColumnCollations);
      }
      List<List<byte[]>> members = null;
      boolean needsMembers = count(BinlogType::isEnumOrSet) > 0;
      if (needsMembers && (sawEnumValues || count(t -> t == BinlogType.ENUM) == 0)
          && (sawSetValues || count(t -> t == BinlogType.SET) == 0)) {
        members = new ArrayList<>(columns);
        int e = 0;
        int s = 0;
        for (int type : types) {
          members.add(type == BinlogType.ENUM ? at(enumValues, e++) : type == BinlogType.SET ? at(setValues, s++) : null);
        }
      }
      List<Integer> key = primaryKey != null ? List.copyOf(primaryKey) : names != null ? List.of() : null;
      return new TableMap(tableId, database, table, types, meta, nullable, names, unsigned, collations, members, key);
    }

    private static List<byte[]> at(List<List<byte[]>> lists, int index) {
      return index < lists.size() ? lists.get(index) : List.of();
    }

    private void spread(int[] collations, java.util.function.IntPredicate covered, int defaultCollation,
        List<int[]> exceptions, List<Integer> perColumn) {
      int n = 0;
      for (int i = 0; i < realTypes.length; i++) {
        if (!covered.test(realTypes[i])) {
          continue;
        }
        if (perColumn != null) {
          collations[i] = n < perColumn.size() ? perColumn.get(n) : -1;
        } else if (defaultCollation >= 0) {
          collations[i] = defaultCollation;
          for (int[] exception : exceptions) {
            if (exception[0] == n) {
              collations[i] = exception[1];
            }
          }
        }
        n++;
      }
    }

    private int count(java.util.function.IntPredicate predicate) {
      int n = 0;
      for (int type : realTypes) {
        if (predicate.test(type)) {
          n++;
        }
      }
      return n;
    }

    private static void readMembers(ByteReader value, List<List<byte[]>> target) {
      while (value.hasRemaining()) {
        int count = value.packedInt();
        List<byte[]> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          names.add(value.bytes(value.packedInt()));
        }
        target.add(names);
      }
    }

    private static List<Integer> packedList(ByteReader value) {
      List<Integer> list = new ArrayList<>();
      while (value.hasRemaining()) {
        list.add(value.packedInt());
      }
      return list;
    }

    /** The SIGNEDNESS bitmap runs from the most significant bit of its first byte. */
    private static boolean[] bitmapMsbFirst(ByteReader in, int bits) {
      boolean[] set = new boolean[bits];
      int bytes = Math.min(in.remaining(), (bits + 7) >>> 3);
      int at = in.advance(bytes);
      byte[] buf = in.array();
      for (int i = 0; i < bits && (i >>> 3) < bytes; i++) {
        set[i] = (buf[at + (i >>> 3)] & (0x80 >>> (i & 7))) != 0;
      }
      return set;
    }
  }
}
