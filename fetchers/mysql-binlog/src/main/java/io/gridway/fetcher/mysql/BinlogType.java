package io.gridway.fetcher.mysql;

/**
 * The column type codes of the binlog ({@code enum_field_types} in the server's sources), as a table-map
 * event carries them. Codes, not an enum: the decoders index arrays by them.
 */
final class BinlogType {
  private BinlogType() {}

  static final int DECIMAL = 0; // pre-5.0 DECIMAL, never in a row-based binlog of a supported server
  static final int TINY = 1;
  static final int SHORT = 2;
  static final int LONG = 3;
  static final int FLOAT = 4;
  static final int DOUBLE = 5;
  static final int NULL = 6;
  static final int TIMESTAMP = 7;
  static final int LONGLONG = 8;
  static final int INT24 = 9;
  static final int DATE = 10;
  static final int TIME = 11;
  static final int DATETIME = 12;
  static final int YEAR = 13;
  static final int NEWDATE = 14;
  static final int VARCHAR = 15;
  static final int BIT = 16;
  static final int TIMESTAMP2 = 17;
  static final int DATETIME2 = 18;
  static final int TIME2 = 19;
  static final int VECTOR = 242;
  static final int JSON = 245;
  static final int NEWDECIMAL = 246;
  static final int ENUM = 247;
  static final int SET = 248;
  static final int TINY_BLOB = 249;
  static final int MEDIUM_BLOB = 250;
  static final int LONG_BLOB = 251;
  static final int BLOB = 252;
  static final int VAR_STRING = 253;
  static final int STRING = 254;
  static final int GEOMETRY = 255;

  /** Columns the SIGNEDNESS metadata covers (MariaDB counts YEAR; BIT is not among them). */
  static boolean isNumeric(int type) {
    return switch (type) {
      case TINY, SHORT, INT24, LONG, LONGLONG, NEWDECIMAL, FLOAT, DOUBLE, YEAR -> true;
      default -> false;
    };
  }

  /** Columns the DEFAULT_CHARSET/COLUMN_CHARSET metadata covers, by real type (GEOMETRY included, ENUM/SET not). */
  static boolean hasCharset(int realType) {
    return switch (realType) {
      case STRING, VAR_STRING, VARCHAR, BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, GEOMETRY -> true;
      default -> false;
    };
  }

  static boolean isEnumOrSet(int realType) {
    return realType == ENUM || realType == SET;
  }

  static String name(int type) {
    return switch (type) {
      case DECIMAL -> "DECIMAL (pre-5.0)";
      case TINY -> "TINY";
      case SHORT -> "SHORT";
      case LONG -> "LONG";
      case FLOAT -> "FLOAT";
      case DOUBLE -> "DOUBLE";
      case NULL -> "NULL";
      case TIMESTAMP -> "TIMESTAMP";
      case LONGLONG -> "LONGLONG";
      case INT24 -> "INT24";
      case DATE -> "DATE";
      case TIME -> "TIME";
      case DATETIME -> "DATETIME";
      case YEAR -> "YEAR";
      case NEWDATE -> "NEWDATE";
      case VARCHAR -> "VARCHAR";
      case BIT -> "BIT";
      case TIMESTAMP2 -> "TIMESTAMP2";
      case DATETIME2 -> "DATETIME2";
      case TIME2 -> "TIME2";
      case VECTOR -> "VECTOR";
      case JSON -> "JSON";
      case NEWDECIMAL -> "NEWDECIMAL";
      case ENUM -> "ENUM";
      case SET -> "SET";
      case TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB -> "BLOB";
      case VAR_STRING -> "VAR_STRING";
      case STRING -> "STRING";
      case GEOMETRY -> "GEOMETRY";
      default -> "unknown";
    };
  }
}
