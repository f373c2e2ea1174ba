package io.gridway.fetcher.mysql;

import io.gridway.core.schema.Column;

/** A column of a schema together with the decoder of its row-image values. Immutable. */
record TypedColumn(Column column, ColumnDecoder decoder) {}
