package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * A policy as the relay's fetch stage runs it: drops transactions of this grid's origin, drops
 * events of tables it does not select and rows its {@code where} rules reject, transforms columns
 * and assigns partitions.
 *
 * <p>Per event the cost is a schema-id cache probe plus what the table's rules do; the first event
 * of each table version compiles that version's plan (milliseconds, once). Thread-safe: any number
 * of fetch threads may share one instance.
 *
 * <p>Throws {@link PolicySchemaException} when a table version first seen at run time does not fit
 * the policy (a rule reads a column the table no longer has). The relay should treat that as fatal
 * until a corrected policy is loaded.
 */
public final class FetchPolicy {
  private final CompiledRules rules;
  private final String origin;
  private final SchemaCache<TablePlan> plans = new SchemaCache<>();

  FetchPolicy(CompiledRules rules) {
    this.rules = rules;
    this.origin = rules.spec().origin();
  }

  /**
   * The transaction as the policy has it published: the same instance when the policy changes
   * nothing, a new one with the kept (and transformed, re-partitioned) events otherwise, or null
   * when nothing is left or the transaction carries this grid's origin. A null still means the
   * source position advanced: the relay records it as for any other transaction.
   */
  public Transaction apply(Transaction tx) {
    List<ChangeEvent> events = tx.events();
    if (origin != null && carriesOrigin(events)) {
      return null;
    }
    int n = events.size();
    List<ChangeEvent> out = null;
    for (int i = 0; i < n; i++) {
      ChangeEvent e = events.get(i);
      ChangeEvent result = process(e);
      if (result != e && out == null) {
        out = new ArrayList<>(n);
        out.addAll(events.subList(0, i));
      }
      if (out != null && result != null) {
        out.add(result);
      }
    }
    if (out == null) {
      return tx;
    }
    return out.isEmpty() ? null : new Transaction(tx.scn(), tx.commitTimeMicros(), tx.position(), tx.gtid(), out);
  }

  /** One event, outside a transaction: the kept (transformed, partitioned) event, or null. */
  public ChangeEvent apply(ChangeEvent event) {
    if (origin != null && origin.equals(event.origin())) {
      return null;
    }
    return process(event);
  }

  /**
   * Whether a transaction is this grid's own write coming back. A transaction is one commit of one
   * writer, so one event carrying the origin marks all of it.
   */
  private boolean carriesOrigin(List<ChangeEvent> events) {
    for (ChangeEvent e : events) {
      if (origin.equals(e.origin())) {
        return true;
      }
    }
    return false;
  }

  private ChangeEvent process(ChangeEvent e) {
    TablePlan plan = plan(e.schema());
    if (!plan.selection().test(e)) {
      return null;
    }
    ChangeEvent out = plan.transform() == null ? e : plan.transform().apply(e);
    int partition = plan.partitioner().partition(e);
    return partition == out.partition() ? out : out.withPartition(partition);
  }

  TablePlan plan(TableSchema schema) {
    TablePlan plan = plans.get(schema.id());
    if (plan != null) {
      return plan;
    }
    try {
      return plans.get(schema, rules::plan);
    } catch (RuleException e) {
      throw rules.failure(e, schema);
    }
  }

  /** Compiles (and caches) the plan of a schema known at load, reporting instead of throwing. */
  void warm(TableSchema schema) throws RuleException {
    plans.get(schema, rules::plan);
  }
}
