package io.gridway.fetcher.mysql;

import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;

/** A SCHEMA_CHANGE or TRUNCATE that a DDL statement makes to one captured table. Immutable. */
record TableChange(TableSchema schema, Operation op, String ddl) {}
