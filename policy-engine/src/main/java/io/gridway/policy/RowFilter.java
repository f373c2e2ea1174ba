package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.schema.TableSchema;

/**
 * A policy's selection ({@code include}/{@code exclude}) and {@code where} rules as a per-event
 * test: what a relay evaluates for a subscription, on the events it serves (which a fetch policy
 * may already have transformed, so column names are the published ones).
 *
 * <p>NULL semantics: see {@link Policy}. Thread-safe; the first event of each table version
 * compiles its predicates once. Throws {@link PolicySchemaException} when a table version does not
 * fit a predicate.
 */
public final class RowFilter {
  private final CompiledRules rules;
  private final SchemaCache<Selection> selections = new SchemaCache<>();

  RowFilter(CompiledRules rules) {
    this.rules = rules;
  }

  /** Whether a subscriber receives this event. */
  public boolean test(ChangeEvent event) {
    return selection(event.schema()).test(event);
  }

  Selection selection(TableSchema schema) {
    Selection s = selections.get(schema.id());
    if (s != null) {
      return s;
    }
    try {
      return selections.get(schema, rules::selection);
    } catch (RuleException e) {
      throw rules.failure(e, schema);
    }
  }
}
