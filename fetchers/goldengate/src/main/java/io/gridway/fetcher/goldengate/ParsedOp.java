package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;

/**
 * One operation read from a record, with its images as value arrays in column order (null for an absent image).
 * The arrays are handed over to the rows built from them and never touched again.
 */
record ParsedOp(TableEntry table, Operation op, Object[] before, Object[] after) {}
