package io.gridway.core.wire;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigInteger;

/**
 * A table schema compiled for the codec: per column, its {@link ValueKind} and the limits a value
 * must respect, in flat arrays so that encoding and decoding a row touch no {@link Column} record
 * and box nothing. Built once per schema; immutable and thread-safe.
 */
final class SchemaLayout {
  final TableSchema schema;
  final int columnCount;
  final ValueKind[] kinds;
  final boolean[] nullable;
  /** Value range of integer-valued kinds (integers, BIT, YEAR, TIME, TIMESTAMP). */
  final long[] min;
  final long[] max;
  /** Whether the range is narrower than the wire width, so the decoder must read and check it. */
  final boolean[] ranged;
  /** DECIMAL precision and scale. */
  final int[] precision;
  final int[] scale;
  /** DECIMAL: unscaled byte counts at or below which no value can exceed the precision. */
  final int[] decimalSafeBytes;
  /** DECIMAL: 10^precision, the first unscaled magnitude that does not fit. */
  final BigInteger[] decimalLimit;

  SchemaLayout(TableSchema schema) {
    this.schema = schema;
    this.columnCount = schema.columnCount();
    kinds = new ValueKind[columnCount];
    nullable = new boolean[columnCount];
    min = new long[columnCount];
    max = new long[columnCount];
    ranged = new boolean[columnCount];
    precision = new int[columnCount];
    scale = new int[columnCount];
    decimalSafeBytes = new int[columnCount];
    decimalLimit = new BigInteger[columnCount];
    for (int i = 0; i < columnCount; i++) {
      Column c = schema.column(i);
      kinds[i] = ValueKind.of(c);
      nullable[i] = c.nullable();
      setRange(i, c);
      if (c.type() == ColumnType.DECIMAL) {
        precision[i] = c.precision();
        scale[i] = c.scale();
        decimalLimit[i] = BigInteger.TEN.pow(c.precision());
        int safe = 0;
        // n bytes of two's complement reach at most 2^(8n-1) in magnitude.
        while (BigInteger.ONE.shiftLeft(8 * (safe + 1) - 1).compareTo(decimalLimit[i]) < 0) {
          safe++;
        }
        decimalSafeBytes[i] = safe;
      }
    }
  }

  private void setRange(int i, Column c) {
    boolean u = c.unsigned();
    switch (c.type()) {
      case TINYINT -> range(i, u ? 0 : Byte.MIN_VALUE, u ? 0xFF : Byte.MAX_VALUE, false);
      case SMALLINT -> range(i, u ? 0 : Short.MIN_VALUE, u ? 0xFFFF : Short.MAX_VALUE, false);
      case MEDIUMINT -> range(i, u ? 0 : -(1L << 23), u ? (1L << 24) - 1 : (1L << 23) - 1, true);
      case INT -> range(i, u ? 0 : Integer.MIN_VALUE, u ? 0xFFFF_FFFFL : Integer.MAX_VALUE, false);
      case BIGINT -> range(i, Long.MIN_VALUE, Long.MAX_VALUE, false);
      case BIT -> {
        boolean full = c.length() == 64;
        range(i, full ? Long.MIN_VALUE : 0, full ? Long.MAX_VALUE : (1L << c.length()) - 1, !full);
      }
      case YEAR -> range(i, 0, 2155, true);
      case TIME -> range(i, -Temporals.MAX_TIME_MICROS, Temporals.MAX_TIME_MICROS, true);
      case TIMESTAMP -> range(i, 0, Temporals.MAX_TIMESTAMP_MICROS, true);
      case DATE, DATETIME -> ranged[i] = true; // field checks in Temporals
      default -> {}
    }
  }

  private void range(int i, long lo, long hi, boolean narrower) {
    min[i] = lo;
    max[i] = hi;
    ranged[i] = narrower;
  }

  /** Whether an integer-valued column accepts {@code v} (YEAR also excludes 1..1900). */
  boolean inRange(int col, long v) {
    return v >= min[col] && v <= max[col] && (kinds[col] != ValueKind.YEAR || v == 0 || v >= 1901);
  }

  String columnName(int col) {
    return schema.qualifiedName() + "." + schema.column(col).name();
  }
}
