package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import java.util.List;

/**
 * Whether a table version is selected, and the row predicates of its {@code where} rules: the part
 * of a policy a subscription evaluates. Immutable and thread-safe.
 *
 * @param included whether include/exclude select the table
 * @param why for an excluded table, the reason (for explanations); "" otherwise
 * @param predicates the {@code where} rules that apply, all of which must hold
 */
record Selection(boolean included, String why, List<Predicate> predicates) {
  static final Selection EXCLUDED_BY_DEFAULT = new Selection(false, "", List.of());

  Selection {
    predicates = List.copyOf(predicates);
  }

  /** One compiled {@code where} rule. */
  record Predicate(String rule, CompiledExpression expression) {}

  /**
   * Whether an event passes: the table is selected and every predicate is true. Predicates apply to
   * row events only: TRUNCATE and DDL of a selected table always pass.
   */
  boolean test(ChangeEvent e) {
    if (!included) {
      return false;
    }
    Row row = e.after() != null ? e.after() : e.before();
    if (row == null) {
      return true;
    }
    for (Predicate p : predicates) {
      if (!p.expression().test(e, row)) {
        return false;
      }
    }
    return true;
  }
}
