package io.gridway.policy;

import io.gridway.core.schema.TableSchema;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A policy's {@code route} and {@code conflict} rules as the consumer's appliers look them up: one
 * {@link ApplyRule} per source table, computed once and cached. Thread-safe.
 */
public final class ApplyPolicy {
  private final CompiledRules rules;
  private final SchemaCache<ApplyRule> bySchema = new SchemaCache<>();
  private final ConcurrentHashMap<TableName, ApplyRule> byName = new ConcurrentHashMap<>();

  ApplyPolicy(CompiledRules rules) {
    this.rules = rules;
  }

  /**
   * The rule of a table version (the hot-path form: a schema-id probe).
   *
   * @throws PolicySchemaException when its newest-wins column is not in the table
   */
  public ApplyRule rule(TableSchema schema) {
    ApplyRule rule = bySchema.get(schema.id());
    if (rule != null) {
      return rule;
    }
    try {
      return bySchema.get(schema, this::checked);
    } catch (RuleException e) {
      throw rules.failure(e, schema);
    }
  }

  /** The rule of a table by name, when no schema is at hand. */
  public ApplyRule rule(String database, String table) {
    return byName.computeIfAbsent(new TableName(database, table), k -> rules.applyRule(database, table));
  }

  private record TableName(String database, String table) {}

  private ApplyRule checked(TableSchema schema) throws RuleException {
    RuleException problem = rules.checkConflictColumn(schema);
    if (problem != null) {
      throw problem;
    }
    return rule(schema.database(), schema.table());
  }
}
