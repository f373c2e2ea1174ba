package io.gridway.core.schema;

/**
 * The SQL column types Gridway carries, one per MySQL/MariaDB type family.
 *
 * <p>Each type fixes how a value is held in memory (its canonical Java type, see {@link #javaType})
 * and how it is laid out on the wire (see {@link #wireKind}); {@code docs/wire-format.md} has the
 * table. Signedness is a property of the {@link Column}, not of the type.
 */
public enum ColumnType {
  TINYINT(WireKind.INT8),
  SMALLINT(WireKind.INT16),
  MEDIUMINT(WireKind.INT32),
  INT(WireKind.INT32),
  BIGINT(WireKind.INT64),
  DECIMAL(WireKind.DECIMAL),
  FLOAT(WireKind.FLOAT32),
  DOUBLE(WireKind.FLOAT64),
  /** BIT(1..64): the bits, right-aligned in a 64-bit integer. */
  BIT(WireKind.INT64),
  CHAR(WireKind.STRING),
  VARCHAR(WireKind.STRING),
  TEXT(WireKind.STRING),
  /** The member's name, as MySQL returns it. */
  ENUM(WireKind.STRING),
  /** The members' names joined by commas, as MySQL returns them. */
  SET(WireKind.STRING),
  /** JSON text (the fetcher turns MySQL's binary JSON into text). */
  JSON(WireKind.STRING),
  BINARY(WireKind.BYTES),
  VARBINARY(WireKind.BYTES),
  BLOB(WireKind.BYTES),
  /** The server's internal geometry bytes (SRID + WKB), passed through untouched. */
  GEOMETRY(WireKind.BYTES),
  /** Packed fields year:14 month:4 day:5, so that zero dates survive exactly. */
  DATE(WireKind.INT32),
  /** Signed microseconds, -838:59:59.999999 to 838:59:59.999999. */
  TIME(WireKind.INT64),
  /** Packed fields year:14 month:4 day:5 hour:5 minute:6 second:6 micros:20 (no time zone). */
  DATETIME(WireKind.INT64),
  /** Microseconds since 1970-01-01T00:00:00Z; 0 is MySQL's zero timestamp. */
  TIMESTAMP(WireKind.INT64),
  /** The year, 0 for MySQL's zero year. */
  YEAR(WireKind.INT16);

  /** How a value of a type is laid out on the wire. */
  public enum WireKind {
    INT8(1),
    INT16(2),
    INT32(4),
    INT64(8),
    FLOAT32(4),
    FLOAT64(8),
    DECIMAL(-1),
    STRING(-1),
    BYTES(-1);

    private final int fixedWidth;

    WireKind(int fixedWidth) {
      this.fixedWidth = fixedWidth;
    }

    /** The value's width in bytes, or -1 when the value is length-prefixed. */
    public int fixedWidth() {
      return fixedWidth;
    }
  }

  private static final ColumnType[] BY_CODE = values();

  private final WireKind wireKind;

  ColumnType(WireKind wireKind) {
    this.wireKind = wireKind;
  }

  public WireKind wireKind() {
    return wireKind;
  }

  /** The type's stable wire code: its position in this enum. New types are only ever appended. */
  public int code() {
    return ordinal();
  }

  /** The type for a wire code, or null when the code is unknown. */
  public static ColumnType ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  public boolean isInteger() {
    return this == TINYINT || this == SMALLINT || this == MEDIUMINT || this == INT || this == BIGINT;
  }

  public boolean isTextual() {
    return wireKind == WireKind.STRING;
  }

  public boolean isBinary() {
    return wireKind == WireKind.BYTES;
  }

  public boolean isTemporal() {
    return this == DATE || this == TIME || this == DATETIME || this == TIMESTAMP || this == YEAR;
  }

  /**
   * The canonical Java type of a non-null value of this type in a column of the given signedness.
   * Only BIGINT UNSIGNED needs {@link java.math.BigInteger}; every other integer fits a {@link
   * Long}. Dates that {@link java.time} cannot hold (month or day 0) are {@link
   * io.gridway.core.event.ZeroDate}.
   */
  public Class<?> javaType(boolean unsigned) {
    return switch (this) {
      case TINYINT, SMALLINT, MEDIUMINT, INT, BIT, YEAR -> Long.class;
      case BIGINT -> unsigned ? java.math.BigInteger.class : Long.class;
      case DECIMAL -> java.math.BigDecimal.class;
      case FLOAT -> Float.class;
      case DOUBLE -> Double.class;
      case CHAR, VARCHAR, TEXT, ENUM, SET, JSON -> String.class;
      case BINARY, VARBINARY, BLOB, GEOMETRY -> io.gridway.core.event.Bytes.class;
      case DATE -> java.time.LocalDate.class;
      case TIME -> java.time.Duration.class;
      case DATETIME -> java.time.LocalDateTime.class;
      case TIMESTAMP -> java.time.Instant.class;
    };
  }
}
