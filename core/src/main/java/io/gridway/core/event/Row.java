package io.gridway.core.event;

import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.util.AbstractList;
import java.util.Objects;

/**
 * One row image: a value per column of a {@link TableSchema}, in column order, each of the column's
 * canonical Java type ({@link Column#javaType()}) or null for SQL NULL. An empty string and NULL
 * stay distinct. A decoder may hold a text value as its UTF-8 bytes ({@link Utf8Text}) and a DECIMAL of at
 * most 18 digits as its unscaled long ({@link CompactDecimal}), through {@link #ofChecked}: {@link #get}
 * still gives its String or BigDecimal, and {@link #held} the value as held.
 *
 * <p>Immutable and thread-safe. Rows compare by value, as lists of what {@link #get} returns; binary values
 * compare by content.
 */
public final class Row extends AbstractList<Object> {
  private final Object[] values;

  private Row(Object[] values) {
    this.values = values;
  }

  /**
   * A row of the given schema. Every value is checked against its column (Java type and SQL range),
   * so a fetcher bug surfaces here, naming the table and column, rather than as a corrupt frame.
   *
   * @throws IllegalArgumentException naming the column and the reason when a value does not fit
   */
  public static Row of(TableSchema schema, Object... values) {
    if (schema == null) {
      throw new IllegalArgumentException("a row needs its table's schema, and none was given: the table is unknown"
          + " (dropped, or never described by the source)");
    }
    Objects.requireNonNull(values, "values");
    if (values.length != schema.columnCount()) {
      throw new IllegalArgumentException(
          schema.qualifiedName() + ": row has " + values.length + " values for " + schema.columnCount() + " columns");
    }
    Object[] copy = values.clone();
    for (int i = 0; i < copy.length; i++) {
      Column column = schema.column(i);
      String problem = column.checkValue(copy[i]);
      if (problem != null) {
        throw new IllegalArgumentException(schema.qualifiedName() + "." + column.name() + ": " + problem);
      }
    }
    return new Row(copy);
  }

  /**
   * A row of values that were each checked already against a column of the same Java type and SQL
   * range: a decoder built them value by value from this schema's own column decoders (the binlog
   * fetcher, where the per-value check of {@link #of} was about a sixth of its thread's time), or a
   * policy's column transform copied them from a row of the source table or checked its replacements
   * once at compile time. Only the width is checked, and the array is taken over, not copied: the
   * caller must not touch it afterwards. A value that does not fit its column still never reaches a
   * reader: the frame encoder checks each value's type and range as it writes it, naming the table and
   * column. A text value may be a {@link Utf8Text}, a DECIMAL a {@link CompactDecimal}. Everything else uses
   * {@link #of}.
   *
   * @throws IllegalArgumentException when the schema is missing or the number of values differs from its columns
   */
  public static Row ofChecked(TableSchema schema, Object[] values) {
    if (schema == null) {
      throw new IllegalArgumentException("a row needs its table's schema, and none was given");
    }
    if (values.length != schema.columnCount()) {
      throw new IllegalArgumentException(
          schema.qualifiedName() + ": row has " + values.length + " values for " + schema.columnCount() + " columns");
    }
    return new Row(values);
  }

  /** The value of a column, of its canonical Java type; held UTF-8 text and compact DECIMALs are made (once) here. */
  @Override
  public Object get(int index) {
    Object value = values[index];
    return value instanceof Utf8Text text ? text.toString()
        : value instanceof CompactDecimal decimal ? decimal.toBigDecimal()
        : value;
  }

  /**
   * The value as this row holds it: as {@link #get}, except that text a decoder kept as UTF-8 stays a
   * {@link Utf8Text} and a DECIMAL kept as its unscaled long a {@link CompactDecimal}. For code that encodes
   * or copies values without reading them (into a row made with {@link #ofChecked}).
   */
  public Object held(int index) {
    return values[index];
  }

  @Override
  public int size() {
    return values.length;
  }

  public boolean isNull(int index) {
    return values[index] == null;
  }
}
