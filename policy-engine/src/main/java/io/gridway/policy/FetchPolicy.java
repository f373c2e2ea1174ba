package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A policy as the relay's fetch stage runs it: drops transactions of this grid's origin, drops
 * events of tables it does not select and rows its {@code where} rules reject, transforms columns
 * and routes every event to its partitions:
 *
 * <ul>
 *   <li>INSERT and DELETE go to the partition of their row image (after, before);
 *   <li>an UPDATE goes to the partition of its after image, unless its before image belongs to
 *       another partition (the key, or the value a map partitions by, moved): then it is split into a
 *       DELETE of the before image in the old partition followed by an INSERT of the after image in
 *       the new one, in its place in the transaction (same SCN), so each key's history stays in the
 *       partition of that key;
 *   <li>TRUNCATE and SCHEMA_CHANGE go to every partition 0..{@link #partitions()}-1, one copy each
 *       in its place in the transaction, so that every partition's stream carries the barrier at its
 *       SCN. A run of such copies (an earlier policy's broadcast) counts as one event.
 * </ul>
 *
 * <p>Per event the cost is a schema-id cache probe plus what the table's rules do; the first event
 * of each table version compiles that version's plan (milliseconds, once). Only a split or a
 * broadcast allocates events beyond the re-partitioned copy. Thread-safe: any number of fetch
 * threads may share one instance.
 *
 * <p>Throws {@link PolicySchemaException} when a table version first seen at run time does not fit
 * the policy (a rule reads a column the table no longer has). The relay should treat that as fatal
 * until a corrected policy is loaded.
 */
public final class FetchPolicy {
  private final CompiledRules rules;
  private final String origin;
  private final SchemaCache<TablePlan> plans;
  private final int partitions;

  FetchPolicy(CompiledRules rules, SchemaCache<TablePlan> plans, int partitions) {
    this.rules = rules;
    this.origin = rules.spec().origin();
    this.plans = plans;
    this.partitions = partitions;
  }

  /** How many partitions TRUNCATE and DDL are copied to: 0..partitions-1. */
  public int partitions() {
    return partitions;
  }

  /**
   * The transaction as the policy has it published: the same instance when the policy changes
   * nothing, a new one with the kept (and transformed, re-partitioned, split, broadcast) events
   * otherwise, or null when nothing is left or the transaction carries this grid's origin. A null
   * still means the source position advanced: the relay records it as for any other transaction.
   */
  public Transaction apply(Transaction tx) {
    List<ChangeEvent> events = tx.events();
    if (origin != null && carriesOrigin(events)) {
      return null;
    }
    int n = events.size();
    List<ChangeEvent> out = null; // null while every event so far is published as it came
    int i = 0;
    while (i < n) {
      ChangeEvent e = events.get(i);
      TablePlan plan = plan(e.schema());
      if (isBarrier(e.op())) {
        int run = copies(events, i);
        if (!plan.selection().test(e)) {
          out = started(out, events, i, n);
        } else {
          ChangeEvent t = plan.transform() == null ? e : plan.transform().apply(e);
          if (t == e && run == partitions) {
            if (out != null) {
              out.addAll(events.subList(i, i + run)); // already one copy per partition
            }
          } else {
            out = started(out, events, i, n + partitions);
            for (int p = 0; p < partitions; p++) {
              out.add(t.partition() == p ? t : t.withPartition(p));
            }
          }
        }
        i += run;
        continue;
      }
      if (!plan.selection().test(e)) {
        out = started(out, events, i, n);
        i++;
        continue;
      }
      ChangeEvent t = plan.transform() == null ? e : plan.transform().apply(e);
      int partition = partition(plan.partitioner(), e);
      int old = movedFrom(plan.partitioner(), e, partition);
      if (old >= 0) {
        out = started(out, events, i, n + 1);
        out.add(new ChangeEvent(t.schema(), Operation.DELETE, t.before(), null, null, t.scn(), t.commitTimeMicros(), old, t.origin()));
        out.add(new ChangeEvent(t.schema(), Operation.INSERT, null, t.after(), null, t.scn(), t.commitTimeMicros(), partition, t.origin()));
        i++;
        continue;
      }
      ChangeEvent result = t.partition() == partition ? t : t.withPartition(partition);
      if (result != e) {
        out = started(out, events, i, n);
      }
      if (out != null) {
        out.add(result);
      }
      i++;
    }
    if (out == null) {
      return tx;
    }
    return out.isEmpty() ? null : new Transaction(tx.scn(), tx.commitTimeMicros(), tx.position(), tx.gtid(), out);
  }

  /**
   * One event, outside a transaction: the kept (transformed, partitioned) event, or null. An event
   * the policy publishes as several — an UPDATE that moves its key to another partition, a TRUNCATE
   * or DDL with more than one partition — is refused: publish it with {@link #apply(Transaction)}.
   */
  public ChangeEvent apply(ChangeEvent event) {
    if (origin != null && origin.equals(event.origin())) {
      return null;
    }
    TablePlan plan = plan(event.schema());
    if (!plan.selection().test(event)) {
      return null;
    }
    if (isBarrier(event.op()) && partitions != 1) {
      throw severalEvents(event, partitions);
    }
    ChangeEvent t = plan.transform() == null ? event : plan.transform().apply(event);
    int partition = isBarrier(event.op()) ? 0 : partition(plan.partitioner(), event);
    if (!isBarrier(event.op()) && movedFrom(plan.partitioner(), event, partition) >= 0) {
      throw severalEvents(event, 2);
    }
    return partition == t.partition() ? t : t.withPartition(partition);
  }

  private static IllegalArgumentException severalEvents(ChangeEvent event, int count) {
    return new IllegalArgumentException(event.op() + " on " + event.schema().qualifiedName() + " is published as "
        + count + " events (a key move or a barrier): apply it as part of a transaction");
  }

  /**
   * How policies applied one after another route the rows of a table version, for a snapshot chunk's key range
   * (docs/bootstrap.md §5.3). Each one partitions every row event again, so the last one decides; a column rule that
   * changes a key column's values anywhere in the chain makes it {@link KeyRouting.Unknown} (the target's key is no
   * longer the source's). No policy: the fetcher's partition, 0. Throws what routing a row of the table would throw when
   * a policy does not fit the table.
   */
  public static KeyRouting keyRouting(List<FetchPolicy> chain, TableSchema schema) {
    KeyRouting routing = new KeyRouting.OnePartition(0);
    TableSchema seen = schema; // as the next policy sees it: the previous one's derived schema
    for (FetchPolicy policy : chain) {
      TablePlan plan = policy.plan(seen);
      if (plan.transform() != null && !plan.transform().keepsKey(seen)) {
        return new KeyRouting.Unknown("rule " + plan.transformRule() + " changes the key's values");
      }
      routing = plan.partitioner().keyRouting();
      if (routing instanceof KeyRouting.Unknown) {
        return routing;
      }
      if (plan.transform() != null) {
        seen = plan.transform().derived();
      }
    }
    return routing;
  }

  /** The partition of a row event: its after image's, or its before image's for a DELETE. */
  static int partition(Partitioner partitioner, ChangeEvent e) {
    return partitioner.partition(e.op() == Operation.DELETE ? e.before() : e.after());
  }

  /** For an UPDATE whose before image belongs to another partition than {@code partition}: that one; else -1. */
  static int movedFrom(Partitioner partitioner, ChangeEvent e, int partition) {
    if (e.op() != Operation.UPDATE || partitioner.samePartition(e.before(), e.after())) {
      return -1;
    }
    int old = partitioner.partition(e.before());
    return old == partition ? -1 : old;
  }

  static boolean isBarrier(Operation op) {
    return op == Operation.TRUNCATE || op == Operation.SCHEMA_CHANGE;
  }

  /**
   * How many events from {@code i} on are one barrier event: 1, or the length of a run of copies of it
   * in partitions 0, 1, 2, … (same operation, table version and statement) that an earlier policy made.
   */
  private static int copies(List<ChangeEvent> events, int i) {
    ChangeEvent first = events.get(i);
    if (first.partition() != 0) {
      return 1;
    }
    int end = i + 1;
    while (end < events.size()) {
      ChangeEvent next = events.get(end);
      if (next.partition() != end - i || next.op() != first.op() || next.schemaId() != first.schemaId()
          || !Objects.equals(next.ddl(), first.ddl())) {
        break;
      }
      end++;
    }
    return end - i;
  }

  /** The output list, started with the events before {@code i} (published unchanged) when it is not yet. */
  private static List<ChangeEvent> started(List<ChangeEvent> out, List<ChangeEvent> events, int i, int capacity) {
    if (out != null) {
      return out;
    }
    List<ChangeEvent> list = new ArrayList<>(capacity);
    list.addAll(events.subList(0, i));
    return list;
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

  TablePlan plan(TableSchema schema) {
    TablePlan plan = plans.get(schema.id());
    if (plan != null) {
      return plan;
    }
    try {
      return plans.get(schema, version -> rules.plan(version, true));
    } catch (RuleException e) {
      throw rules.failure(e, schema);
    }
  }

  /** Compiles (and caches) the plan of a schema known at load, reporting instead of throwing. */
  void warm(TableSchema schema) throws RuleException {
    plans.get(schema, rules::plan);
  }
}
