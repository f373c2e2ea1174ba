/** Versioned table schemas: column names, SQL types and keys that change events refer to by id. */
package io.gridway.core.schema;
