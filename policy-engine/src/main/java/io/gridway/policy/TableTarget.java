package io.gridway.policy;

/**
 * Where an applier writes a source table's changes.
 *
 * @param database the target database (schema)
 * @param table the target table
 * @param rule the {@code route} rule that chose it, or null when the source names are kept
 */
public record TableTarget(String database, String table, String rule) {
  /** {@code database.table}. */
  public String qualifiedName() {
    return database + "." + table;
  }
}
