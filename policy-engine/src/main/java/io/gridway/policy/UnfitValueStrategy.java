package io.gridway.policy;

/**
 * What an applier does with a row change whose values the target cannot hold (a NUL in PostgreSQL text, a zero date
 * into NOT NULL, a value out of the target column's range): the {@code unfit-values} rule of a table, or the applier's
 * own setting for tables without one.
 */
public enum UnfitValueStrategy {
  /** To the dead-letter table with the reason; later changes of its key park behind it; the rest goes on. */
  PARK("park"),
  /** The documented replacement (NUL stripped, a zero date into NOT NULL a sentinel); parked when it still fails. */
  MAP("map"),
  /** The partition stops, naming group, partition, SCN, table, column and key. */
  FAIL("fail");

  private final String yamlName;

  UnfitValueStrategy(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The name in policy files and applier settings. */
  public String yamlName() {
    return yamlName;
  }

  /** The strategy of a name, or null. */
  public static UnfitValueStrategy ofYaml(String name) {
    for (UnfitValueStrategy s : values()) {
      if (s.yamlName.equals(name)) {
        return s;
      }
    }
    return null;
  }
}
