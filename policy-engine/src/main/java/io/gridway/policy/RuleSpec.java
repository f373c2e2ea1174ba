package io.gridway.policy;

import java.util.List;
import java.util.Map;

/**
 * One named rule: the tables it is about and what it does. Immutable.
 *
 * @param name unique within the policy
 * @param loc where the rule starts
 * @param tables the patterns it applies to; empty means every table the policy includes
 * @param body what the rule does
 */
record RuleSpec(String name, Loc loc, List<TablePattern> tables, Body body) {
  RuleSpec {
    tables = List.copyOf(tables);
  }

  /** How messages name the rule: {@code rule 'pii' (columns)}. */
  String label() {
    return "rule '" + name + "' (" + body.kind() + ")";
  }

  boolean appliesTo(String database, String table) {
    if (tables.isEmpty()) {
      return true;
    }
    for (TablePattern p : tables) {
      if (p.matches(database, table)) {
        return true;
      }
    }
    return false;
  }

  /** A column name as written, with its position for messages. */
  record ColumnName(String name, Loc loc) {}

  /** An expression as written, with its position. */
  record Expr(String text, Loc loc) {}

  /** What a rule does: exactly one kind per rule. */
  sealed interface Body {
    String kind();
  }

  /** {@code where}: a row predicate. */
  record Where(Expr expression) implements Body {
    @Override
    public String kind() {
      return "where";
    }
  }

  /**
   * {@code columns}: which columns leave the relay, and how.
   *
   * @param keep if not empty, only these columns (and {@code set} columns) are kept
   * @param drop these columns are removed
   * @param rename old name → new name
   * @param mask column → replacement, as its YAML scalar
   * @param hash columns replaced by the HMAC-SHA-256 of their value
   * @param set column → expression; an existing column is replaced, a new one appended
   */
  record Columns(
      List<ColumnName> keep,
      List<ColumnName> drop,
      Map<ColumnName, String> rename,
      Map<ColumnName, YNode.YScalar> mask,
      List<ColumnName> hash,
      Map<ColumnName, Expr> set)
      implements Body {
    @Override
    public String kind() {
      return "columns";
    }
  }

  /** {@code partition}: one of the three ways to choose a partition. */
  sealed interface Partition extends Body {
    @Override
    default String kind() {
      return "partition";
    }
  }

  /** Every event of the rule's tables goes to one partition ("by table list"). */
  record FixedPartition(int partition) implements Partition {}

  /** {@code offset + xxHash64(key) mod buckets}, unsigned. */
  record KeyHashPartition(int buckets, int offset, Loc loc) implements Partition {}

  /** By the value of one column, through a map, with a default for values not in it. */
  record ValuePartition(ColumnName column, Map<String, Integer> map, Map<String, Loc> keyLocs, int defaultPartition)
      implements Partition {}

  /** {@code route}: the target database and table, templates over {@code {database}} and {@code {table}}. */
  record Route(String database, String table) implements Body {
    @Override
    public String kind() {
      return "route";
    }
  }

  /** {@code conflict}: how appliers resolve a conflicting change. */
  record Conflict(io.gridway.policy.ConflictStrategy strategy, ColumnName column, String deadLetter) implements Body {
    @Override
    public String kind() {
      return "conflict";
    }
  }

  /** {@code unfit-values}: what appliers do with a change whose values the target cannot hold. */
  record Unfit(UnfitValueStrategy strategy) implements Body {
    @Override
    public String kind() {
      return "unfit-values";
    }
  }

  /** {@code storage}: how an applier that creates the target table lays it out (null fields: the applier's setting). */
  record Storage(Integer saltBuckets, String columnFamily) implements Body {
    @Override
    public String kind() {
      return "storage";
    }
  }
}
