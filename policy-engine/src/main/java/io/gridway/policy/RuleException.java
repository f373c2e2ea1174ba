package io.gridway.policy;

/**
 * A rule cannot be compiled for a particular table: a missing column, an expression of the wrong
 * type for the table's columns, a key column dropped. At load time it becomes a {@link
 * PolicyError}; for a schema first seen at run time, a {@link PolicySchemaException}.
 */
final class RuleException extends Exception {
  private final transient RuleSpec rule;
  private final transient Loc loc;

  RuleException(RuleSpec rule, Loc loc, String reason) {
    super(reason);
    this.rule = rule;
    this.loc = loc;
  }

  RuleSpec rule() {
    return rule;
  }

  Loc loc() {
    return loc;
  }
}
