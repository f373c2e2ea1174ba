package io.gridway.policy;

import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated policy's rules, and how they compile for one table version. Rule order matters: all
 * matching {@code where} rules must hold; of the {@code columns}, {@code partition}, {@code route}
 * and {@code conflict} rules, the first that matches a table (in file order) is the one used.
 * Immutable and thread-safe; the per-table results are cached by the evaluators, not here.
 */
final class CompiledRules {
  private final PolicySpec spec;
  private final HmacSha256 hmac;

  CompiledRules(PolicySpec spec, HmacSha256 hmac) {
    this.spec = spec;
    this.hmac = hmac;
  }

  PolicySpec spec() {
    return spec;
  }

  /** Why include/exclude leave a table out, or null when they select it. */
  String exclusion(String database, String table) {
    if (!spec.include().isEmpty() && spec.include().stream().noneMatch(p -> p.matches(database, table))) {
      return "not matched by include " + spec.include();
    }
    for (TablePattern p : spec.exclude()) {
      if (p.matches(database, table)) {
        return "excluded by pattern '" + p + "'";
      }
    }
    return null;
  }

  Selection selection(TableSchema schema) throws RuleException {
    String why = exclusion(schema.database(), schema.table());
    if (why != null) {
      return new Selection(false, why, List.of());
    }
    List<Selection.Predicate> predicates = new ArrayList<>();
    for (RuleSpec rule : spec.rules()) {
      if (rule.body() instanceof RuleSpec.Where where && rule.appliesTo(schema.database(), schema.table())) {
        try {
          predicates.add(new Selection.Predicate(rule.name(), Expressions.compile(where.expression().text(), schema, Expressions.Purpose.PREDICATE)));
        } catch (ExpressionException e) {
          throw new RuleException(rule, where.expression().loc(), "on " + schema.qualifiedName() + ": " + e.getMessage());
        }
      }
    }
    return new Selection(true, "", predicates);
  }

  TablePlan plan(TableSchema schema) throws RuleException {
    return plan(schema, false);
  }

  /**
   * The plan of a table version. With {@code lazyPartition}, a partition rule that does not fit the
   * table (a value map's column missing, as in the placeholder schema of a DROP TABLE) does not fail
   * the plan: only a row event, which needs a partition, fails — TRUNCATE and DDL go to every
   * partition and never need one.
   */
  TablePlan plan(TableSchema schema, boolean lazyPartition) throws RuleException {
    Selection selection = selection(schema);
    if (!selection.included()) {
      return new TablePlan(selection, null, null, null, null);
    }
    RuleSpec columns = first(schema, RuleSpec.Columns.class);
    ColumnTransform transform = columns == null ? null : ColumnTransform.compile(columns, schema, hmac);
    RuleSpec partition = first(schema, RuleSpec.Partition.class);
    Partitioner partitioner;
    if (partition == null) {
      partitioner = new Partitioner.Fixed(spec.defaultPartition(), "the policy's default partition");
    } else {
      RuleSpec.Body body = partition.body();
      if (body instanceof RuleSpec.KeyHashPartition k) {
        partitioner = Partitioner.KeyHash.compile(k.buckets(), k.offset(), schema);
      } else if (body instanceof RuleSpec.ValuePartition v) {
        try {
          partitioner = Partitioner.ByValue.compile(partition, v, schema);
        } catch (RuleException e) {
          if (!lazyPartition) {
            throw e;
          }
          partitioner = new Partitioner.Unusable(failure(e, schema));
        }
      } else {
        partitioner = new Partitioner.Fixed(((RuleSpec.FixedPartition) body).partition(), "the rule's fixed partition");
      }
    }
    return new TablePlan(selection, transform, columns == null ? null : columns.name(), partitioner, partition == null ? null : partition.name());
  }

  /** The route, conflict, unfit-values and storage rules of a table (it need not be selected: appliers see what they are sent). */
  ApplyRule applyRule(String database, String table) {
    RuleSpec route = first(database, table, RuleSpec.Route.class);
    TableTarget target;
    if (route == null) {
      target = new TableTarget(database, table, null);
    } else {
      RuleSpec.Route r = (RuleSpec.Route) route.body();
      target = new TableTarget(NameTemplate.parse(r.database(), true).apply(database, table),
          NameTemplate.parse(r.table(), false).apply(database, table), route.name());
    }
    RuleSpec conflict = first(database, table, RuleSpec.Conflict.class);
    ConflictRule rule;
    if (conflict == null) {
      rule = ConflictRule.DEFAULT;
    } else {
      RuleSpec.Conflict c = (RuleSpec.Conflict) conflict.body();
      rule = new ConflictRule(c.strategy(), c.column() == null ? null : c.column().name(), c.deadLetter(), conflict.name());
    }
    RuleSpec unfit = first(database, table, RuleSpec.Unfit.class);
    RuleSpec storage = first(database, table, RuleSpec.Storage.class);
    TableStorage layout = null;
    if (storage != null) {
      RuleSpec.Storage s = (RuleSpec.Storage) storage.body();
      layout = new TableStorage(s.saltBuckets(), s.columnFamily(), storage.name());
    }
    return new ApplyRule(target, rule, unfit == null ? null : ((RuleSpec.Unfit) unfit.body()).strategy(), layout);
  }

  /** The newest-wins column of a table's conflict rule must exist; null when fine. */
  RuleException checkConflictColumn(TableSchema schema) {
    RuleSpec conflict = first(schema, RuleSpec.Conflict.class);
    if (conflict != null && conflict.body() instanceof RuleSpec.Conflict c && c.column() != null && schema.indexOf(c.column().name()) < 0) {
      return new RuleException(conflict, c.column().loc(), "newest-wins column '" + c.column().name() + "' is not in " + schema.qualifiedName());
    }
    return null;
  }

  private RuleSpec first(TableSchema schema, Class<? extends RuleSpec.Body> kind) {
    return first(schema.database(), schema.table(), kind);
  }

  private RuleSpec first(String database, String table, Class<? extends RuleSpec.Body> kind) {
    for (RuleSpec rule : spec.rules()) {
      if (kind.isInstance(rule.body()) && rule.appliesTo(database, table)) {
        return rule;
      }
    }
    return null;
  }

  /** A rule exception as the run-time exception evaluators throw. */
  PolicySchemaException failure(RuleException e, TableSchema schema) {
    return new PolicySchemaException("policy '" + spec.name() + "' version " + spec.version() + ", " + e.rule().label()
        + " (" + spec.file() + ":" + e.loc().line() + "): cannot handle " + schema.qualifiedName() + " (schema "
        + Long.toUnsignedString(schema.id(), 16) + "): " + e.getMessage());
  }
}
