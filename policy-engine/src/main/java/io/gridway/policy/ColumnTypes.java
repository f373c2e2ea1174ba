package io.gridway.policy;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.CelType;
import dev.cel.common.types.NullableType;
import dev.cel.common.values.CelByteString;
import io.gridway.core.event.Bytes;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;

/**
 * The column types that {@code set}, {@code mask} and {@code hash} produce, and how their values
 * are made. Stateless and thread-safe.
 */
final class ColumnTypes {
  private ColumnTypes() {}

  /**
   * The column a {@code set} expression of a CEL result type makes, with the conversion of its CEL
   * value to the column's Java type.
   */
  record Result(String celType, Function<String, Column> column, Function<Object, Object> fromCel) {}

  /** The result mapping of a CEL type, or null when no column type holds it. */
  static Result forResult(CelType type) {
    CelType t = type instanceof NullableType n ? n.targetType() : type;
    return switch (t.kind()) {
      case INT -> new Result("int", name -> nullable(name, ColumnType.BIGINT, false), v -> v);
      case UINT -> new Result("uint", name -> nullable(name, ColumnType.BIGINT, true), v -> ((UnsignedLong) v).bigIntegerValue());
      case DOUBLE -> new Result("double", name -> nullable(name, ColumnType.DOUBLE, false), v -> v);
      case STRING -> new Result("string", name -> new Column(name, ColumnType.TEXT, false, true, 0, 0, 0, "utf8mb4", List.of()), v -> v);
      case BOOL -> new Result("bool", name -> nullable(name, ColumnType.TINYINT, false), v -> ((Boolean) v) ? 1L : 0L);
      case BYTES -> new Result("bytes", name -> nullable(name, ColumnType.BLOB, false), v -> Bytes.wrap(((CelByteString) v).toByteArray()));
      case TIMESTAMP -> new Result("timestamp", name -> new Column(name, ColumnType.DATETIME, false, true, 0, 0, 6, null, List.of()),
          v -> LocalDateTime.ofInstant(((Instant) v).truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC));
      case DURATION -> new Result("duration", name -> new Column(name, ColumnType.TIME, false, true, 0, 0, 6, null, List.of()),
          v -> ((Duration) v).truncatedTo(ChronoUnit.MICROS));
      default -> null;
    };
  }

  private static Column nullable(String name, ColumnType type, boolean unsigned) {
    return new Column(name, type, unsigned, true, 0, 0, 0, null, List.of());
  }

  /** The column a hashed column becomes: 64 hex digits. */
  static Column hashed(Column source, String name) {
    return new Column(name, ColumnType.CHAR, false, source.nullable(), 64, 0, 0, "ascii", List.of());
  }

  /**
   * A mask replacement as a value of the column's type.
   *
   * @throws IllegalArgumentException with the reason when the replacement does not fit the column
   */
  static Object maskValue(Column column, YNode.YScalar replacement) {
    ColumnType type = column.type();
    String text = replacement.text();
    if (replacement.type() == YNode.YScalar.Type.NULL) {
      throw new IllegalArgumentException("a mask replaces a value with another; to blank a column, drop it");
    }
    Object value;
    if (type.isTextual()) {
      value = text;
    } else if (type.isBinary()) {
      value = Bytes.wrap(text.getBytes(StandardCharsets.UTF_8));
    } else if (column.javaType() == Long.class) {
      value = parse(text, column, Long::valueOf);
    } else if (column.javaType() == BigInteger.class) {
      value = parse(text, column, BigInteger::new);
    } else if (type == ColumnType.DECIMAL) {
      value = parse(text, column, s -> new BigDecimal(s).setScale(column.scale(), RoundingMode.HALF_UP));
    } else if (type == ColumnType.FLOAT) {
      value = parse(text, column, Float::valueOf);
    } else if (type == ColumnType.DOUBLE) {
      value = parse(text, column, Double::valueOf);
    } else {
      throw new IllegalArgumentException("cannot mask " + type + " column '" + column.name() + "': drop, hash or set it instead");
    }
    String problem = column.checkValue(value);
    if (problem != null) {
      throw new IllegalArgumentException("mask value '" + text + "' does not fit column '" + column.name() + "': " + problem);
    }
    return value;
  }

  private static Object parse(String text, Column column, Function<String, Object> parser) {
    try {
      return parser.apply(text.trim());
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("mask value '" + text + "' is not a number for " + column.type() + " column '" + column.name() + "'", e);
    }
  }
}
