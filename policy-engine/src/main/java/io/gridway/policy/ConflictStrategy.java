package io.gridway.policy;

/**
 * How an applier resolves a change that conflicts with the target row (an insert of a key that
 * exists, an update or delete of a row that is missing or differs from the before image).
 */
public enum ConflictStrategy {
  /** The incoming change is applied: insert becomes update, a missing row is inserted. The default. */
  SOURCE_WINS("source-wins"),
  /** The target row is kept and the change skipped. */
  TARGET_WINS("target-wins"),
  /** The newer of the two by a column (or by commit time when none is named) is kept. */
  NEWEST_WINS("newest-wins"),
  /** The applier stops with an error naming the table and key. */
  FAIL("fail"),
  /** The change is written to a dead-letter table for an operator, and the applier goes on. */
  PARK("park");

  private final String yamlName;

  ConflictStrategy(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The name in policy files. */
  public String yamlName() {
    return yamlName;
  }

  /** The strategy of a policy-file name, or null. */
  static ConflictStrategy ofYaml(String name) {
    for (ConflictStrategy s : values()) {
      if (s.yamlName.equals(name)) {
        return s;
      }
    }
    return null;
  }
}
