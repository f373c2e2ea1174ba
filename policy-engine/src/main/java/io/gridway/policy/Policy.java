package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import java.util.Map;
import java.util.TreeMap;

/**
 * A loaded, validated and compiled policy: immutable, and the unit of hot reload. A relay or
 * consumer holds the current one in an {@code AtomicReference} and swaps in a newly loaded version
 * at a window boundary; a version that fails to load never replaces the one in force.
 *
 * <p>Its three evaluators are the three places a policy runs (DESIGN §7): {@link #fetch()} in the
 * relay's fetch stage, {@link #subscription()} for a subscriber's row predicate, {@link #apply()}
 * in the consumer's appliers. Each caches its per-table decisions by schema id.
 *
 * <p><b>NULL in predicates.</b> A {@code where} expression keeps an event only when it evaluates to
 * {@code true}. Comparing NULL with {@code < <= > >=}, or doing arithmetic on it, is an evaluation
 * error in CEL, and an error is not true: {@code after.x > 5} is false when x is NULL. As in SQL's
 * three-valued logic, {@code !(after.x > 5)} is not true either, {@code &&} and {@code ||} still
 * decide when the other side settles it ({@code after.x > 5 || op == "DELETE"} is true for a
 * DELETE), and {@code after.x == null} tests for NULL. The README has the full table.
 *
 * <p>Thread-safe.
 */
public final class Policy {
  private final CompiledRules rules;
  private final FetchPolicy fetch;
  private final SchemaCache<TablePlan> plans = new SchemaCache<>();
  private volatile FetchPolicy sized; // the last fetch(n) asked for: a relay asks for one size only
  private final RowFilter subscription;
  private final ApplyPolicy apply;

  Policy(CompiledRules rules) {
    this.rules = rules;
    this.fetch = new FetchPolicy(rules, plans, partitionsUsed());
    this.subscription = new RowFilter(rules);
    this.apply = new ApplyPolicy(rules);
  }

  public String name() {
    return rules.spec().name();
  }

  public long version() {
    return rules.spec().version();
  }

  public String description() {
    return rules.spec().description();
  }

  /** The file it was loaded from (or the name given to a string). */
  public String file() {
    return rules.spec().file();
  }

  /** This grid's origin id, or null when the policy does no origin filtering. */
  public String origin() {
    return rules.spec().origin();
  }

  /**
   * The relay's fetch stage: selection, predicates, column transforms, partitioning, origin. TRUNCATE
   * and DDL go to every partition the policy uses ({@link #partitionsUsed()}).
   */
  public FetchPolicy fetch() {
    return fetch;
  }

  /**
   * The fetch stage for a source of {@code sourcePartitions} partitions: as {@link #fetch()}, with
   * TRUNCATE and DDL copied to every partition the source has (or the policy uses, if more). Shares
   * {@link #fetch()}'s per-table plans.
   */
  public FetchPolicy fetch(int sourcePartitions) {
    int n = Math.max(sourcePartitions, fetch.partitions());
    if (n == fetch.partitions()) {
      return fetch;
    }
    FetchPolicy f = sized;
    if (f == null || f.partitions() != n) {
      f = new FetchPolicy(rules, plans, n);
      sized = f;
    }
    return f;
  }

  /**
   * Whether the policy's {@code include}/{@code exclude} select table {@code database.table}: a table they leave out
   * has none of its events published, so a relay does not offer it for snapshots either (docs/bootstrap.md §5). By
   * name only; {@code where} rules filter rows, not tables.
   */
  public boolean selectsTable(String database, String table) {
    return rules.exclusion(database, table) == null;
  }

  /** A subscriber's filter: selection and predicates, evaluated per event. */
  public RowFilter subscription() {
    return subscription;
  }

  /** The consumer's appliers: routing and conflict strategy per table. */
  public ApplyPolicy apply() {
    return apply;
  }

  /** What the policy does to one event, step by step. */
  public Explanation explain(ChangeEvent event) {
    return Explainer.explain(this, event);
  }

  /**
   * How many partitions this policy's events use: one above the highest partition its {@code partition} rules
   * and {@code default-partition} can give. A consumer group subscribing to it has this many partitions.
   */
  public int partitionsUsed() {
    PolicySpec spec = rules.spec();
    int highest = spec.defaultPartition();
    for (RuleSpec rule : spec.rules()) {
      if (rule.body() instanceof RuleSpec.FixedPartition f) {
        highest = Math.max(highest, f.partition());
      } else if (rule.body() instanceof RuleSpec.KeyHashPartition k) {
        highest = Math.max(highest, k.offset() + k.buckets() - 1);
      } else if (rule.body() instanceof RuleSpec.ValuePartition v) {
        highest = Math.max(highest, v.defaultPartition());
        for (int p : v.map().values()) {
          highest = Math.max(highest, p);
        }
      }
    }
    return highest + 1;
  }

  /** One line: name, version and what it holds, for {@code policy validate} and logs. */
  public String summary() {
    PolicySpec spec = rules.spec();
    Map<String, Integer> kinds = new TreeMap<>();
    spec.rules().forEach(r -> kinds.merge(r.body().kind(), 1, Integer::sum));
    StringBuilder s = new StringBuilder("policy '").append(name()).append("' version ").append(version()).append(": ");
    s.append(spec.rules().size()).append(spec.rules().size() == 1 ? " rule" : " rules");
    if (!kinds.isEmpty()) {
      s.append(" (");
      kinds.forEach((k, n) -> s.append(n).append(' ').append(k).append(", "));
      s.setLength(s.length() - 2);
      s.append(')');
    }
    s.append(", include ").append(spec.include().isEmpty() ? "*.*" : spec.include().toString());
    if (!spec.exclude().isEmpty()) {
      s.append(", exclude ").append(spec.exclude());
    }
    if (spec.origin() != null) {
      s.append(", origin ").append(spec.origin());
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return "Policy[" + name() + " v" + version() + "]";
  }
}
