package io.gridway.fetcher.mysql;

import java.util.List;

/**
 * What a DDL statement does to tables, as far as capture cares: which tables it leaves with a new shape,
 * which it removes, and whether it is a TRUNCATE. Immutable.
 *
 * @param changed tables that exist after the statement with a (possibly) new shape, as {db, table} pairs
 * @param removed tables that no longer exist under that name afterwards (DROP, the old name of a RENAME)
 * @param truncate whether the statement is a TRUNCATE of {@code changed}
 */
record DdlStatement(List<String[]> changed, List<String[]> removed, boolean truncate) {
  static final DdlStatement NONE = new DdlStatement(List.of(), List.of(), false);

  DdlStatement {
    changed = List.copyOf(changed);
    removed = List.copyOf(removed);
  }

  boolean affectsTables() {
    return !changed.isEmpty() || !removed.isEmpty();
  }
}
