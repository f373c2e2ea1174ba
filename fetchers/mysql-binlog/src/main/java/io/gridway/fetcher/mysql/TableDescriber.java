package io.gridway.fetcher.mysql;

import java.sql.SQLException;

/** Describes a table as it is now ({@link InformationSchema}; tests use fixed descriptions). */
@FunctionalInterface
interface TableDescriber {
  TableDescriber NONE = (database, table) -> null;

  /** The table as it is now, or null when it does not exist (any more). */
  TableDescription describe(String database, String table) throws SQLException;
}
