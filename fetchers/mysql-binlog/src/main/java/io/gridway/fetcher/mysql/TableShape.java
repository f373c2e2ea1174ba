package io.gridway.fetcher.mysql;

import io.gridway.core.schema.TableSchema;

/**
 * One version of a captured table: its schema and a decoder per column, built once per table
 * definition and shared by every row event that uses it. Immutable.
 */
record TableShape(TableSchema schema, ColumnDecoder[] decoders) {}
