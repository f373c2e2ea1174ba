package io.gridway.policy;

import dev.cel.runtime.CelEvaluationException;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks one event through a policy's fetch plan, recording why each step decided what it did. Off
 * the hot path: predicates are re-evaluated with CEL itself so that an error carries CEL's message.
 * Stateless and thread-safe.
 */
final class Explainer {
  private Explainer() {}

  static Explanation explain(Policy policy, ChangeEvent event) {
    List<String> steps = new ArrayList<>();
    ApplyRule apply = policy.apply().rule(event.database(), event.table());
    String origin = policy.origin();
    if (origin != null && origin.equals(event.origin())) {
      steps.add("origin: the event carries this grid's origin '" + origin + "': its transaction is dropped (no replication loop)");
      return new Explanation(false, steps, null, apply);
    }
    TablePlan plan = policy.fetch().plan(event.schema());
    Selection selection = plan.selection();
    if (!selection.included()) {
      steps.add("table " + event.schema().qualifiedName() + ": " + selection.why() + ": dropped");
      return new Explanation(false, steps, null, apply);
    }
    steps.add("table " + event.schema().qualifiedName() + ": selected");
    Row row = event.after() != null ? event.after() : event.before();
    for (Selection.Predicate p : selection.predicates()) {
      String verdict = row == null ? "not applied (no row image)" : verdict(p.expression(), event, row);
      steps.add("where rule '" + p.rule() + "' (" + p.expression().text() + "): " + verdict);
      if (row != null && !p.expression().test(event, row)) {
        steps.add("dropped by rule '" + p.rule() + "'");
        return new Explanation(false, steps, null, apply);
      }
    }
    ChangeEvent out = event;
    if (plan.transform() != null) {
      out = plan.transform().apply(event);
      steps.add("columns rule '" + plan.transformRule() + "': " + (plan.transform().effects().isEmpty() ? "no change" : String.join("; ", plan.transform().effects())));
    }
    String rule = plan.partitionRule() == null ? "" : "rule '" + plan.partitionRule() + "', ";
    if (FetchPolicy.isBarrier(event.op())) {
      int n = policy.fetch().partitions();
      steps.add("partitions 0.." + (n - 1) + ": " + event.op() + " goes to every partition (a barrier each partition's stream carries at its SCN)");
      out = out.partition() == 0 ? out : out.withPartition(0);
    } else {
      int partition = FetchPolicy.partition(plan.partitioner(), event);
      int old = FetchPolicy.movedFrom(plan.partitioner(), event, partition);
      out = out.partition() == partition ? out : out.withPartition(partition);
      if (old >= 0) {
        steps.add("partition " + old + " → " + partition + ": " + rule + plan.partitioner().describe()
            + "; the update moves the row, so it is published as a DELETE of the old image in partition " + old
            + " and an INSERT of the new image in partition " + partition + " (each key's history stays in its partition)");
      } else {
        steps.add("partition " + partition + ": " + rule + plan.partitioner().describe());
      }
    }
    TableTarget target = apply.target();
    steps.add("route: " + event.schema().qualifiedName() + " → " + target.qualifiedName() + (target.rule() == null ? " (no route rule)" : " (rule '" + target.rule() + "')"));
    ConflictRule conflict = apply.conflict();
    steps.add("conflict: " + conflict.strategy().yamlName()
        + (conflict.column() != null ? " by " + conflict.column() : conflict.strategy() == ConflictStrategy.NEWEST_WINS ? " by commit time" : "")
        + (conflict.rule() == null ? " (default)" : " (rule '" + conflict.rule() + "')"));
    TableStorage storage = apply.storage();
    if (storage != null) {
      steps.add("storage: " + (storage.saltBuckets() == null ? "" : "salt-buckets " + storage.saltBuckets())
          + (storage.saltBuckets() != null && storage.columnFamily() != null ? ", " : "")
          + (storage.columnFamily() == null ? "" : "column-family " + storage.columnFamily())
          + " (rule '" + storage.rule() + "'; read by appliers that create tables: Phoenix)");
    }
    return new Explanation(true, steps, out, apply);
  }

  private static String verdict(CompiledExpression expression, ChangeEvent event, Row row) {
    try {
      Object value = expression.evalWithCel(event, row);
      return String.valueOf(value);
    } catch (CelEvaluationException e) {
      String message = e.getMessage();
      return "error, which counts as false (" + message + ")";
    }
  }
}
