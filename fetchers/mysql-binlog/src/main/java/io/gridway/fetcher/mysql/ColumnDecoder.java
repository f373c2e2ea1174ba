package io.gridway.fetcher.mysql;

/**
 * Reads one non-NULL value of one column from a row image and returns it as the column's canonical Java
 * value ({@link io.gridway.core.schema.Column#javaType()}). Implementations are stateless and
 * thread-safe; one is built per column per table definition, never per row.
 */
@FunctionalInterface
interface ColumnDecoder {
  /** Decodes the value at the reader's position and moves the reader past it. */
  Object decode(ByteReader in);
}
