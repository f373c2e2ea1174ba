package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetcherException;
import java.util.function.Function;

/**
 * The table of column handlers: for each binlog type, the function that turns a {@link ColumnSpec} into
 * the schema's column and its row-image decoder. A type without an entry is an unknown column type.
 * Immutable and thread-safe.
 */
final class ColumnDecoders {
  /** A factory of one binlog type's column and decoder. */
  @FunctionalInterface
  private interface Factory extends Function<ColumnSpec, TypedColumn> {}

  private static final Factory[] BY_TYPE = new Factory[256];

  static {
    BY_TYPE[BinlogType.TINY] = NumericDecoders::tiny;
    BY_TYPE[BinlogType.SHORT] = NumericDecoders::smallint;
    BY_TYPE[BinlogType.INT24] = NumericDecoders::mediumint;
    BY_TYPE[BinlogType.LONG] = NumericDecoders::integer;
    BY_TYPE[BinlogType.LONGLONG] = NumericDecoders::bigint;
    BY_TYPE[BinlogType.NEWDECIMAL] = NumericDecoders::decimal;
    BY_TYPE[BinlogType.FLOAT] = NumericDecoders::floatColumn;
    BY_TYPE[BinlogType.DOUBLE] = NumericDecoders::doubleColumn;
    BY_TYPE[BinlogType.BIT] = NumericDecoders::bit;
    BY_TYPE[BinlogType.YEAR] = NumericDecoders::year;
    BY_TYPE[BinlogType.DATE] = TemporalDecoders::date;
    BY_TYPE[BinlogType.TIME] = TemporalDecoders::time;
    BY_TYPE[BinlogType.TIME2] = TemporalDecoders::time2;
    BY_TYPE[BinlogType.DATETIME] = TemporalDecoders::datetime;
    BY_TYPE[BinlogType.DATETIME2] = TemporalDecoders::datetime2;
    BY_TYPE[BinlogType.TIMESTAMP] = TemporalDecoders::timestamp;
    BY_TYPE[BinlogType.TIMESTAMP2] = TemporalDecoders::timestamp2;
    BY_TYPE[BinlogType.STRING] = TextDecoders::fixed;
    BY_TYPE[BinlogType.VARCHAR] = TextDecoders::variable;
    BY_TYPE[BinlogType.VAR_STRING] = TextDecoders::variable;
    BY_TYPE[BinlogType.BLOB] = TextDecoders::blob;
    BY_TYPE[BinlogType.TINY_BLOB] = TextDecoders::blob;
    BY_TYPE[BinlogType.MEDIUM_BLOB] = TextDecoders::blob;
    BY_TYPE[BinlogType.LONG_BLOB] = TextDecoders::blob;
    BY_TYPE[BinlogType.JSON] = TextDecoders::json;
    BY_TYPE[BinlogType.GEOMETRY] = TextDecoders::geometry;
    BY_TYPE[BinlogType.ENUM] = TextDecoders::enumeration;
    BY_TYPE[BinlogType.SET] = TextDecoders::set;
  }

  private ColumnDecoders() {}

  /**
   * The column and decoder for a spec.
   *
   * @throws FetcherException for an unknown column type
   */
  static TypedColumn forColumn(ColumnSpec spec, int position) {
    Factory factory = spec.realType() >= 0 && spec.realType() < 256 ? BY_TYPE[spec.realType()] : null;
    if (factory == null) {
      throw TableMapParser.unknownType(spec.table(), position, spec.realType());
    }
    return factory.apply(spec);
  }

  /** Whether values of this type are text that needs a character set. */
  static boolean needsCharset(int realType) {
    return switch (realType) {
      case BinlogType.STRING, BinlogType.VARCHAR, BinlogType.VAR_STRING, BinlogType.BLOB, BinlogType.TINY_BLOB,
          BinlogType.MEDIUM_BLOB, BinlogType.LONG_BLOB -> true;
      default -> false;
    };
  }
}
