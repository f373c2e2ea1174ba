package io.gridway.core.schema;

import io.gridway.core.event.ZeroDate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One column of a {@link TableSchema}.
 *
 * @param name the column's name as the source spells it
 * @param type its SQL type family
 * @param unsigned for integer types, whether the column is UNSIGNED
 * @param nullable whether the column accepts NULL
 * @param length CHAR/VARCHAR/BINARY/VARBINARY length, BIT width (1..64); 0 where it means nothing
 * @param precision DECIMAL precision (1..65); 0 otherwise
 * @param scale DECIMAL scale (0..30), or fractional-second digits (0..6) of TIME, DATETIME and
 *     TIMESTAMP; 0 otherwise
 * @param charset the source character set of a textual column (for example {@code utf8mb4}), or
 *     null; values are already decoded to Java strings, this only documents the source
 * @param members the member names of an ENUM or SET column, empty for other types
 * @param declared the source's declared type where the binlog carries it as another family (MariaDB UUID, INET4,
 *     INET6 are BINARY(16/4/16)), or null; see {@link DeclaredType}
 * @param defaultValue the column's constant DEFAULT on the source, as text (a number, a string's content, a date's or
 *     time's text) — MariaDB gives it to every existing row of an {@code ALTER TABLE … ADD COLUMN} — or null when there
 *     is none, it is NULL or an expression ({@code CURRENT_TIMESTAMP}, {@code uuid()}), or it is not known
 */
public record Column(
    String name,
    ColumnType type,
    boolean unsigned,
    boolean nullable,
    int length,
    int precision,
    int scale,
    String charset,
    List<String> members,
    DeclaredType declared,
    String defaultValue) {

  private static final BigInteger UNSIGNED_BIGINT_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final long MAX_TIME_MICROS = ((838L * 60 + 59) * 60 + 59) * 1_000_000L + 999_999L;

  public Column {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("column name is empty");
    }
    members = members == null ? List.of() : List.copyOf(members);
    charset = charset == null || charset.isEmpty() ? null : charset;
    if (unsigned && !type.isInteger()) {
      throw new IllegalArgumentException("column " + name + ": only integer columns can be unsigned, not " + type);
    }
    switch (type) {
      case DECIMAL -> {
        if (precision < 1 || precision > 65 || scale < 0 || scale > 30 || scale > precision) {
          throw new IllegalArgumentException(
              "column " + name + ": DECIMAL(" + precision + "," + scale + ") is out of range (precision 1..65, scale 0..30)");
        }
      }
      case BIT -> {
        if (length < 1 || length > 64) {
          throw new IllegalArgumentException("column " + name + ": BIT(" + length + ") is out of range 1..64");
        }
      }
      case TIME, DATETIME, TIMESTAMP -> {
        if (scale < 0 || scale > 6) {
          throw new IllegalArgumentException("column " + name + ": fractional seconds " + scale + " out of range 0..6");
        }
      }
      case ENUM, SET -> {
        if (members.isEmpty()) {
          throw new IllegalArgumentException("column " + name + ": " + type + " needs its member names");
        }
      }
      default -> {}
    }
    if (length < 0 || precision < 0 || scale < 0) {
      throw new IllegalArgumentException("column " + name + ": negative length, precision or scale");
    }
    // The wire format (docs/wire-format.md §3) carries these only for the types they mean something
    // for, and the schema id hashes them: a stray value would give two ids to one table shape.
    if (length != 0 && !hasLength(type)) {
      throw new IllegalArgumentException("column " + name + ": " + type + " has no length (got " + length + ")");
    }
    if (precision != 0 && type != ColumnType.DECIMAL) {
      throw new IllegalArgumentException("column " + name + ": " + type + " has no precision (got " + precision + ")");
    }
    if (scale != 0 && !hasScale(type)) {
      throw new IllegalArgumentException("column " + name + ": " + type + " has no scale (got " + scale + ")");
    }
    if (!members.isEmpty() && type != ColumnType.ENUM && type != ColumnType.SET) {
      throw new IllegalArgumentException("column " + name + ": only ENUM and SET columns have members, not " + type);
    }
    if (declared != null && (type != ColumnType.BINARY || length != declared.length())) {
      throw new IllegalArgumentException("column " + name + ": declared " + declared + " is carried as BINARY("
          + declared.length() + "), not " + type + (hasLength(type) ? "(" + length + ")" : ""));
    }
  }

  /** A column without a declared type or default (most columns; the form before both existed). */
  public Column(String name, ColumnType type, boolean unsigned, boolean nullable, int length, int precision, int scale,
      String charset, List<String> members) {
    this(name, type, unsigned, nullable, length, precision, scale, charset, members, null, null);
  }

  private static boolean hasLength(ColumnType type) {
    return switch (type) {
      case CHAR, VARCHAR, BINARY, VARBINARY, BIT -> true;
      default -> false;
    };
  }

  private static boolean hasScale(ColumnType type) {
    return switch (type) {
      case DECIMAL, TIME, DATETIME, TIMESTAMP -> true;
      default -> false;
    };
  }

  /** A column with no length, precision, scale, charset or members: enough for most types. */
  public static Column of(String name, ColumnType type) {
    return new Column(name, type, false, true, 0, 0, 0, null, List.of());
  }

  public static Column unsigned(String name, ColumnType type) {
    return new Column(name, type, true, true, 0, 0, 0, null, List.of());
  }

  public static Column decimal(String name, int precision, int scale) {
    return new Column(name, ColumnType.DECIMAL, false, true, 0, precision, scale, null, List.of());
  }

  public static Column bit(String name, int width) {
    return new Column(name, ColumnType.BIT, false, true, width, 0, 0, null, List.of());
  }

  public static Column text(String name, ColumnType type, String charset) {
    return new Column(name, type, false, true, 0, 0, 0, charset, List.of());
  }

  public static Column temporal(String name, ColumnType type, int fractionalDigits) {
    return new Column(name, type, false, true, 0, 0, fractionalDigits, null, List.of());
  }

  public static Column members(String name, ColumnType type, List<String> members) {
    return new Column(name, type, false, true, 0, 0, 0, "utf8mb4", members);
  }

  /** This column, declared NOT NULL. */
  public Column notNull() {
    return new Column(name, type, unsigned, false, length, precision, scale, charset, members, declared, defaultValue);
  }

  /** This column with a declared type and a default (either may be null). */
  public Column withSource(DeclaredType declaredType, String defaultText) {
    return new Column(name, type, unsigned, nullable, length, precision, scale, charset, members, declaredType, defaultText);
  }

  /** This column as another type family with the same name, nullability and charset (MariaDB's JSON: TEXT → JSON). */
  public Column asType(ColumnType newType) {
    return new Column(name, newType, false, nullable, 0, 0, 0, charset, List.of(), null, defaultValue);
  }

  /** The canonical Java type of this column's non-null values. */
  public Class<?> javaType() {
    return type.javaType(unsigned);
  }

  /**
   * Checks that a value fits this column: its Java type, and the range of its SQL type. Returns
   * null when it does, or the reason when it does not.
   */
  public String checkValue(Object value) {
    if (value == null) {
      return nullable ? null : "NULL in NOT NULL column";
    }
    if (value instanceof ZeroDate zero) {
      return zero.type() == type ? null : "a zero " + zero.type() + " in a " + type + " column";
    }
    if (!javaType().isInstance(value)) {
      return "expected " + javaType().getSimpleName() + " for " + type + ", got " + value.getClass().getSimpleName();
    }
    return switch (type) {
      case TINYINT -> integerRange((Long) value, 8);
      case SMALLINT -> integerRange((Long) value, 16);
      case MEDIUMINT -> integerRange((Long) value, 24);
      case INT -> integerRange((Long) value, 32);
      case BIGINT -> unsigned ? unsignedBigintRange((BigInteger) value) : null;
      case BIT -> length == 64 || ((Long) value >>> length) == 0 ? null : "more than " + length + " bits";
      case YEAR -> (Long) value == 0 || ((Long) value >= 1901 && (Long) value <= 2155) ? null : "year out of range 1901..2155";
      case DECIMAL -> decimalRange((BigDecimal) value);
      case TIME -> timeRange((Duration) value);
      case DATE -> yearRange(((LocalDate) value).getYear());
      case DATETIME -> ((LocalDateTime) value).getNano() % 1000 != 0 ? FINER_THAN_MICROS : yearRange(((LocalDateTime) value).getYear());
      case TIMESTAMP -> timestampRange((Instant) value);
      default -> null;
    };
  }

  private static final String FINER_THAN_MICROS = "finer than microseconds, which the wire format cannot carry";

  /** Last second of 9999-12-31, the end of DATETIME's range too. */
  private static final long MAX_TIMESTAMP_SECOND = 253_402_300_799L;

  private static String timeRange(Duration value) {
    if (value.getNano() % 1000 != 0) {
      return FINER_THAN_MICROS;
    }
    // Compare seconds first: toNanos() overflows for durations beyond ±292 years.
    long seconds = value.getSeconds();
    if (seconds < -MAX_TIME_MICROS / 1_000_000 - 1 || seconds > MAX_TIME_MICROS / 1_000_000) {
      return "TIME out of range ±838:59:59.999999";
    }
    long micros = seconds * 1_000_000L + value.getNano() / 1000;
    return Math.abs(micros) <= MAX_TIME_MICROS ? null : "TIME out of range ±838:59:59.999999";
  }

  private static String timestampRange(Instant value) {
    if (value.getNano() % 1000 != 0) {
      return FINER_THAN_MICROS;
    }
    // Wire value 0 is MySQL's zero TIMESTAMP (ZeroDate), so the epoch itself has no encoding.
    if (value.getEpochSecond() < 0 || value.equals(Instant.EPOCH)) {
      return "TIMESTAMP at or before 1970-01-01T00:00:00Z (the zero TIMESTAMP is ZeroDate.zero(TIMESTAMP))";
    }
    return value.getEpochSecond() <= MAX_TIMESTAMP_SECOND ? null : "TIMESTAMP after 9999-12-31T23:59:59.999999Z";
  }

  private String integerRange(long v, int bits) {
    long min = unsigned ? 0 : -(1L << (bits - 1));
    long max = unsigned ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
    return v >= min && v <= max ? null : v + " out of range " + min + ".." + max;
  }

  private static String unsignedBigintRange(BigInteger v) {
    return v.signum() >= 0 && v.compareTo(UNSIGNED_BIGINT_MAX) <= 0 ? null : v + " out of range 0..2^64-1";
  }

  private String decimalRange(BigDecimal v) {
    if (v.scale() != scale) {
      return "DECIMAL scale " + v.scale() + " differs from the column's " + scale;
    }
    return v.precision() - v.scale() <= precision - scale ? null : v + " exceeds DECIMAL(" + precision + "," + scale + ")";
  }

  private static String yearRange(int year) {
    return year >= 0 && year <= 9999 ? null : "year " + year + " out of range 0..9999";
  }
}
