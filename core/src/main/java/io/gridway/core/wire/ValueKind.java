package io.gridway.core.wire;

import io.gridway.core.schema.Column;

/**
 * How one column's non-NULL value is laid out on the wire and which Java type it has: the column
 * type's {@link io.gridway.core.schema.ColumnType.WireKind} refined by signedness and by the types
 * whose packed form needs its own checks and conversions.
 */
enum ValueKind {
  INT8(1),
  UINT8(1),
  INT16(2),
  UINT16(2),
  INT32(4),
  UINT32(4),
  INT64(8),
  /** BIGINT UNSIGNED: a {@link java.math.BigInteger} in Java. */
  UINT64(8),
  /** The YEAR type: i16 holding 0 or 1901..2155. */
  YEAR(2),
  DECIMAL(-1),
  FLOAT32(4),
  FLOAT64(8),
  STRING(-1),
  BYTES(-1),
  DATE(4),
  TIME(8),
  DATETIME(8),
  TIMESTAMP(8);

  private final int width;

  ValueKind(int width) {
    this.width = width;
  }

  /** Bytes of a fixed-width value, or -1 for a length-prefixed one. */
  int width() {
    return width;
  }

  static ValueKind of(Column c) {
    boolean u = c.unsigned();
    return switch (c.type()) {
      case TINYINT -> u ? UINT8 : INT8;
      case SMALLINT -> u ? UINT16 : INT16;
      case MEDIUMINT -> INT32;
      case INT -> u ? UINT32 : INT32;
      case BIGINT -> u ? UINT64 : INT64;
      case BIT -> INT64;
      case YEAR -> YEAR;
      case DECIMAL -> DECIMAL;
      case FLOAT -> FLOAT32;
      case DOUBLE -> FLOAT64;
      case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> STRING;
      case BINARY, VARBINARY, BLOB, GEOMETRY -> BYTES;
      case DATE -> DATE;
      case TIME -> TIME;
      case DATETIME -> DATETIME;
      case TIMESTAMP -> TIMESTAMP;
    };
  }
}
