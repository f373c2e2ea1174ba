package io.gridway.fetcher.goldengate;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.util.List;
import java.util.Locale;

/**
 * Maps an Oracle column type, as a schema file spells it ({@code NUMBER(12,2)}, {@code VARCHAR2(40 CHAR)},
 * {@code TIMESTAMP(9) WITH TIME ZONE}), to a core column and the decoder for its values. The table is in
 * README.md; this class is its only implementation. Runs once per column when a schema file is read.
 */
final class OracleTypes {
  /** Widest DECIMAL the core carries; NUMBER without precision becomes DECIMAL(65, 30). */
  static final int MAX_PRECISION = 65;
  static final int MAX_SCALE = 30;

  private OracleTypes() {}

  /** A core column and its decoder. */
  record Mapped(Column column, ValueDecoder decoder) {}

  /**
   * @throws IllegalArgumentException naming the type when it is unknown or out of the core's range
   */
  static Mapped map(String columnName, String oracleType) {
    try {
      return mapType(columnName, oracleType);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw m.startsWith("column ") ? e : new IllegalArgumentException("column " + columnName + ": " + m, e);
    }
  }

  private static Mapped mapType(String columnName, String oracleType) {
    String type = oracleType.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    int open = type.indexOf('(');
    int close = type.indexOf(')');
    String base = (open < 0 ? type : type.substring(0, open)).trim();
    String suffix = close < 0 ? "" : type.substring(close + 1).trim();
    String[] args = open < 0 || close < open ? new String[0] : type.substring(open + 1, close).split(",");
    if (open < 0 && (base.endsWith(" WITH TIME ZONE") || base.endsWith(" WITH LOCAL TIME ZONE"))) {
      suffix = base.substring(base.indexOf(" WITH") + 1);
      base = base.substring(0, base.indexOf(" WITH"));
    }
    return switch (base) {
      case "NUMBER", "DECIMAL", "NUMERIC" -> number(columnName, args, oracleType);
      case "INTEGER", "INT", "SMALLINT" -> integer(columnName, 38, oracleType);
      case "FLOAT", "REAL", "DOUBLE PRECISION" -> undeclaredNumber(columnName);
      case "BINARY_FLOAT" -> new Mapped(Column.of(columnName, ColumnType.FLOAT), ValueDecoders.FLOAT);
      case "BINARY_DOUBLE" -> new Mapped(Column.of(columnName, ColumnType.DOUBLE), ValueDecoders.DOUBLE);
      case "VARCHAR2", "VARCHAR" -> text(columnName, ColumnType.VARCHAR, length(args, 1, oracleType), "AL32UTF8");
      case "NVARCHAR2" -> text(columnName, ColumnType.VARCHAR, length(args, 1, oracleType), "AL16UTF16");
      case "CHAR", "CHARACTER" -> text(columnName, ColumnType.CHAR, length(args, 1, oracleType), "AL32UTF8");
      case "NCHAR" -> text(columnName, ColumnType.CHAR, length(args, 1, oracleType), "AL16UTF16");
      case "CLOB", "LONG", "XMLTYPE" -> new Mapped(Column.text(columnName, ColumnType.TEXT, "AL32UTF8"), ValueDecoders.TEXT);
      case "NCLOB" -> new Mapped(Column.text(columnName, ColumnType.TEXT, "AL16UTF16"), ValueDecoders.TEXT);
      case "ROWID", "UROWID" -> new Mapped(Column.text(columnName, ColumnType.VARCHAR, "US7ASCII"), ValueDecoders.TEXT);
      case "INTERVAL YEAR", "INTERVAL DAY" -> new Mapped(Column.text(columnName, ColumnType.VARCHAR, "US7ASCII"), ValueDecoders.TEXT);
      case "RAW" -> new Mapped(new Column(columnName, ColumnType.VARBINARY, false, true, length(args, 1, oracleType), 0, 0, null, List.of()),
          ValueDecoders.BASE64);
      case "BLOB", "LONG RAW" -> new Mapped(Column.of(columnName, ColumnType.BLOB), ValueDecoders.BASE64);
      case "DATE" -> new Mapped(Column.temporal(columnName, ColumnType.DATETIME, 0), ValueDecoders.dateTime(false));
      case "TIMESTAMP" -> timestamp(columnName, args, suffix, oracleType);
      default -> {
        if (base.startsWith("INTERVAL ")) {
          yield new Mapped(Column.text(columnName, ColumnType.VARCHAR, "US7ASCII"), ValueDecoders.TEXT);
        }
        throw new IllegalArgumentException("column " + columnName + ": Oracle type '" + oracleType + "' is not supported");
      }
    };
  }

  private static Mapped number(String columnName, String[] args, String oracleType) {
    if (args.length == 0 || args[0].trim().equals("*") && args.length == 1) {
      return undeclaredNumber(columnName);
    }
    int precision = args[0].trim().equals("*") ? 38 : parse(args[0], oracleType);
    int scale = args.length > 1 ? parse(args[1], oracleType) : 0;
    if (precision < 1 || precision > 38 || args.length > 2) {
      throw new IllegalArgumentException("column " + columnName + ": '" + oracleType + "' is not a valid NUMBER(p,s) with p in 1..38");
    }
    if (scale <= 0) {
      return integer(columnName, precision - scale, oracleType); // NUMBER(p,-s) holds p-s integer digits
    }
    if (scale > MAX_SCALE) {
      throw new IllegalArgumentException("column " + columnName + ": scale of '" + oracleType + "' exceeds the " + MAX_SCALE
          + " decimal places the grid carries");
    }
    int digits = Math.max(precision, scale); // NUMBER(3,5) holds 0.00999: 5 digits, all after the point
    return new Mapped(Column.decimal(columnName, digits, scale), ValueDecoders.decimal(digits, scale));
  }

  private static Mapped integer(String columnName, int digits, String oracleType) {
    ColumnType type = digits <= 2 ? ColumnType.TINYINT : digits <= 4 ? ColumnType.SMALLINT : digits <= 9 ? ColumnType.INT
        : digits <= 18 ? ColumnType.BIGINT : ColumnType.DECIMAL;
    if (type == ColumnType.DECIMAL) {
      if (digits > MAX_PRECISION) {
        throw new IllegalArgumentException("column " + columnName + ": '" + oracleType + "' has more digits than the grid carries");
      }
      return new Mapped(Column.decimal(columnName, digits, 0), ValueDecoders.decimal(digits, 0));
    }
    return new Mapped(Column.of(columnName, type), ValueDecoders.integer(digits));
  }

  private static Mapped undeclaredNumber(String columnName) {
    return new Mapped(Column.decimal(columnName, MAX_PRECISION, MAX_SCALE), ValueDecoders.decimal(MAX_PRECISION, MAX_SCALE));
  }

  private static Mapped text(String columnName, ColumnType type, int length, String charset) {
    return new Mapped(new Column(columnName, type, false, true, length, 0, 0, charset, List.of()), ValueDecoders.TEXT);
  }

  private static Mapped timestamp(String columnName, String[] args, String suffix, String oracleType) {
    int digits = args.length == 0 ? 6 : parse(args[0], oracleType);
    if (digits < 0 || digits > 9) {
      throw new IllegalArgumentException("column " + columnName + ": fractional seconds of '" + oracleType + "' out of range 0..9");
    }
    boolean zoned = switch (suffix) {
      case "" -> false;
      case "WITH TIME ZONE", "WITH LOCAL TIME ZONE" -> true;
      default -> throw new IllegalArgumentException("column " + columnName + ": Oracle type '" + oracleType + "' is not supported");
    };
    return new Mapped(Column.temporal(columnName, ColumnType.DATETIME, Math.min(6, digits)), ValueDecoders.dateTime(zoned));
  }

  private static int length(String[] args, int absent, String oracleType) {
    if (args.length == 0) {
      return absent;
    }
    String first = args[0].trim();
    int space = first.indexOf(' '); // VARCHAR2(40 CHAR), VARCHAR2(40 BYTE)
    return parse(space < 0 ? first : first.substring(0, space), oracleType);
  }

  private static int parse(String number, String oracleType) {
    try {
      return Integer.parseInt(number.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + oracleType + "' has a malformed size '" + number.trim() + "'", e);
    }
  }
}
