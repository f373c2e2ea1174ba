package io.gridway.fetcher.goldengate;

import io.gridway.core.schema.TableSchema;

/**
 * One table as the fetcher knows it: its core schema and one decoder per column, in column order. Immutable.
 *
 * @param name the table name as GoldenGate writes it in records ({@code OWNER.TABLE} or {@code CATALOG.OWNER.TABLE})
 */
record TableEntry(String name, TableSchema schema, ValueDecoder[] decoders) {

  /** The position of a column, trying the expected one first (GoldenGate writes columns in table order). */
  int indexOf(String column, int expected) {
    if (expected < decoders.length && schema.column(expected).name().equals(column)) {
      return expected;
    }
    return schema.indexOf(column);
  }
}
