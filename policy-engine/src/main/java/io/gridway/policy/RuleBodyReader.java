package io.gridway.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the body of one rule ({@code where}, {@code columns}, {@code partition}, {@code route},
 * {@code conflict}) and checks what can be checked without a table schema: shapes, ranges,
 * contradictions between a rule's own keys. Not thread-safe: one per rule.
 */
final class RuleBodyReader {
  private static final Set<String> COLUMN_KEYS = Set.of("keep", "drop", "rename", "mask", "hash", "set");
  private static final Set<String> PARTITION_KEYS = Set.of("to", "key-hash", "offset", "column", "map", "default");
  private static final Set<String> ROUTE_KEYS = Set.of("database", "table");
  private static final Set<String> CONFLICT_KEYS = Set.of("strategy", "column", "dead-letter");
  private static final Set<String> STORAGE_KEYS = Set.of("salt-buckets", "column-family");

  private final Problems problems;
  private final String label;

  RuleBodyReader(Problems problems, String label) {
    this.problems = problems;
    this.label = label;
  }

  RuleSpec.Body read(String kind, YNode node) {
    return switch (kind) {
      case "where" -> where(node);
      case "columns" -> columns(node);
      case "partition" -> partition(node);
      case "route" -> route(node);
      case "unfit-values" -> unfit(node);
      case "storage" -> storage(node);
      default -> conflict(node);
    };
  }

  private RuleSpec.Body where(YNode node) {
    if (node instanceof YNode.YScalar s && s.type() == YNode.YScalar.Type.STRING && !s.text().isBlank()) {
      RuleSpec.Expr expr = new RuleSpec.Expr(s.text(), s.loc());
      return checked(expr, Expressions.Purpose.PREDICATE, "") ? new RuleSpec.Where(expr) : null;
    }
    problems.add(node.loc(), label, "where must be an expression (a string), not " + node.kind());
    return null;
  }

  /**
   * Checks an expression as far as it can be without a table schema (syntax, use of row images,
   * types of everything but columns); false after reporting.
   */
  private boolean checked(RuleSpec.Expr expr, Expressions.Purpose purpose, String prefix) {
    try {
      Expressions.checkWithoutSchema(expr.text(), purpose);
      return true;
    } catch (ExpressionException e) {
      problems.add(expr.loc(), label, prefix + "expression '" + expr.text() + "': " + e.getMessage());
      return false;
    }
  }

  private RuleSpec.Body columns(YNode node) {
    Fields f = Fields.of(node, "columns", label, problems, COLUMN_KEYS);
    if (f == null) {
      return null;
    }
    List<RuleSpec.ColumnName> keep = names(f.strings("keep"));
    List<RuleSpec.ColumnName> drop = names(f.strings("drop"));
    List<RuleSpec.ColumnName> hash = names(f.strings("hash"));
    Map<RuleSpec.ColumnName, String> rename = new LinkedHashMap<>();
    f.scalarMap("rename").forEach((e, v) -> rename.put(new RuleSpec.ColumnName(e.key(), e.keyLoc()), v.text()));
    Map<RuleSpec.ColumnName, YNode.YScalar> mask = new LinkedHashMap<>();
    f.scalarMap("mask").forEach((e, v) -> mask.put(new RuleSpec.ColumnName(e.key(), e.keyLoc()), v));
    Map<RuleSpec.ColumnName, RuleSpec.Expr> set = new LinkedHashMap<>();
    f.scalarMap("set").forEach((e, v) -> {
      if (v.type() != YNode.YScalar.Type.STRING || v.text().isBlank()) {
        problems.add(v.loc(), label, "set." + e.key() + " must be an expression (a string)");
      } else {
        RuleSpec.Expr expr = new RuleSpec.Expr(v.text(), v.loc());
        checked(expr, Expressions.Purpose.VALUE, "set " + e.key() + ": ");
        set.put(new RuleSpec.ColumnName(e.key(), e.keyLoc()), expr);
      }
    });
    if (!keep.isEmpty() && !drop.isEmpty()) {
      problems.add(f.loc(), label, "give keep or drop, not both");
    }
    if (keep.isEmpty() && drop.isEmpty() && rename.isEmpty() && mask.isEmpty() && hash.isEmpty() && set.isEmpty()) {
      problems.add(f.loc(), label, "columns does nothing: give keep, drop, rename, mask, hash or set");
    }
    // A column has one fate: masked, hashed, computed or dropped.
    Map<String, String> fate = new HashMap<>();
    claim(fate, drop, "drop");
    claim(fate, mask.keySet(), "mask");
    claim(fate, hash, "hash");
    claim(fate, set.keySet(), "set");
    Set<String> dropped = new java.util.HashSet<>();
    drop.forEach(c -> dropped.add(c.name()));
    Map<String, String> targets = new HashMap<>();
    for (Map.Entry<RuleSpec.ColumnName, String> r : rename.entrySet()) {
      if (dropped.contains(r.getKey().name())) {
        problems.add(r.getKey().loc(), label, "column '" + r.getKey().name() + "' is both dropped and renamed");
      }
      if (r.getValue().isEmpty()) {
        problems.add(r.getKey().loc(), label, "rename." + r.getKey().name() + " needs a new name");
      }
      String previous = targets.put(r.getValue(), r.getKey().name());
      if (previous != null) {
        problems.add(r.getKey().loc(), label, "columns '" + previous + "' and '" + r.getKey().name() + "' are both renamed to '" + r.getValue() + "'");
      }
    }
    return new RuleSpec.Columns(keep, drop, rename, mask, hash, set);
  }

  private void claim(Map<String, String> fate, Iterable<RuleSpec.ColumnName> columns, String action) {
    for (RuleSpec.ColumnName c : columns) {
      String previous = fate.putIfAbsent(c.name(), action);
      if (previous != null) {
        problems.add(c.loc(), label, "column '" + c.name() + "' is in both " + previous + " and " + action);
      }
    }
  }

  private static List<RuleSpec.ColumnName> names(List<YNode.YScalar> scalars) {
    List<RuleSpec.ColumnName> out = new ArrayList<>();
    scalars.forEach(s -> out.add(new RuleSpec.ColumnName(s.text(), s.loc())));
    return out;
  }

  private RuleSpec.Body partition(YNode node) {
    Fields f = Fields.of(node, "partition", label, problems, PARTITION_KEYS);
    if (f == null) {
      return null;
    }
    List<String> ways = new ArrayList<>();
    for (String way : List.of("to", "key-hash", "column")) {
      if (f.has(way)) {
        ways.add(way);
      }
    }
    if (ways.size() != 1) {
      problems.add(f.loc(), label, "partition needs exactly one of to (a fixed partition), key-hash (a partition count) or column (with map and default)"
          + (ways.isEmpty() ? "" : "; found " + String.join(" and ", ways)));
      return null;
    }
    for (String key : List.of("offset", "map", "default")) {
      boolean belongs = key.equals("offset") ? ways.get(0).equals("key-hash") : ways.get(0).equals("column");
      if (f.has(key) && !belongs) {
        problems.add(f.keyLoc(key), label, key + " does not go with " + ways.get(0));
      }
    }
    return switch (ways.get(0)) {
      case "to" -> {
        Long to = f.integer("to", 0, 0xFFFF, null, true);
        yield to == null ? null : new RuleSpec.FixedPartition(to.intValue());
      }
      case "key-hash" -> keyHash(f);
      default -> byValue(f);
    };
  }

  private RuleSpec.Body keyHash(Fields f) {
    YNode countNode = f.node("key-hash");
    Long buckets = f.integer(countNode, "the partition count (key-hash)", 0, 0x10000);
    if (buckets != null && buckets == 0) {
      problems.add(countNode.loc(), label, "the partition count (key-hash) must be at least 1, not 0");
      return null;
    }
    Long offset = f.integer("offset", 0, 0xFFFF, 0L, false);
    if (buckets == null || offset == null) {
      return null;
    }
    if (offset + buckets - 1 > 0xFFFF) {
      problems.add(f.loc(), label, "partitions " + offset + ".." + (offset + buckets - 1) + " exceed the largest partition, 65535");
      return null;
    }
    return new RuleSpec.KeyHashPartition(buckets.intValue(), offset.intValue(), countNode.loc());
  }

  private RuleSpec.Body byValue(Fields f) {
    String column = f.string("column", true);
    Map<String, Integer> map = new LinkedHashMap<>();
    Map<String, Loc> keyLocs = new LinkedHashMap<>();
    if (!f.has("map")) {
      problems.add(f.loc(), label, "partition by column needs a map of values to partitions");
    }
    f.scalarMap("map").forEach((e, v) -> {
      Long p = f.integer(v, "map." + e.key(), 0, 0xFFFF);
      if (p != null) {
        map.put(e.key(), p.intValue());
        keyLocs.put(e.key(), e.keyLoc());
      }
    });
    Long fallback = f.integer("default", 0, 0xFFFF, null, true);
    if (column == null || fallback == null) {
      return null;
    }
    return new RuleSpec.ValuePartition(new RuleSpec.ColumnName(column, f.keyLoc("column")), map, keyLocs, fallback.intValue());
  }

  private RuleSpec.Body route(YNode node) {
    Fields f = Fields.of(node, "route", label, problems, ROUTE_KEYS);
    if (f == null) {
      return null;
    }
    String database = f.string("database", false);
    String table = f.string("table", false);
    if (database == null && table == null) {
      problems.add(f.loc(), label, "route needs database, table or both");
      return null;
    }
    boolean ok = true;
    for (String key : List.of("database", "table")) {
      String template = key.equals("database") ? database : table;
      if (template != null) {
        String problem = NameTemplate.check(template);
        if (problem != null) {
          problems.add(f.keyLoc(key), label, key + ": " + problem);
          ok = false;
        }
      }
    }
    return ok ? new RuleSpec.Route(database, table) : null;
  }

  private RuleSpec.Body conflict(YNode node) {
    if (node instanceof YNode.YScalar s) {
      ConflictStrategy strategy = strategy(s.text(), s.loc());
      return strategy == null ? null : new RuleSpec.Conflict(strategy, null, null);
    }
    Fields f = Fields.of(node, "conflict", label, problems, CONFLICT_KEYS);
    if (f == null) {
      return null;
    }
    String name = f.string("strategy", true);
    ConflictStrategy strategy = name == null ? null : strategy(name, f.keyLoc("strategy"));
    String column = f.string("column", false);
    String deadLetter = f.string("dead-letter", false);
    if (strategy == null) {
      return null;
    }
    if (column != null && strategy != ConflictStrategy.NEWEST_WINS) {
      problems.add(f.keyLoc("column"), label, "column only goes with newest-wins");
    }
    if (deadLetter != null && strategy != ConflictStrategy.PARK) {
      problems.add(f.keyLoc("dead-letter"), label, "dead-letter only goes with park");
    }
    if (deadLetter != null && deadLetter.indexOf('.') <= 0) {
      problems.add(f.keyLoc("dead-letter"), label, "dead-letter must be database.table, not '" + deadLetter + "'");
    }
    return new RuleSpec.Conflict(strategy, column == null ? null : new RuleSpec.ColumnName(column, f.keyLoc("column")), deadLetter);
  }

  private RuleSpec.Body unfit(YNode node) {
    if (node instanceof YNode.YScalar s && s.type() == YNode.YScalar.Type.STRING) {
      UnfitValueStrategy strategy = UnfitValueStrategy.ofYaml(s.text());
      if (strategy != null) {
        return new RuleSpec.Unfit(strategy);
      }
      problems.add(s.loc(), label, "unknown strategy '" + s.text() + "' (park, map, fail)");
      return null;
    }
    problems.add(node.loc(), label, "must be one of park, map, fail");
    return null;
  }

  private RuleSpec.Body storage(YNode node) {
    Fields f = Fields.of(node, "storage", label, problems, STORAGE_KEYS);
    if (f == null) {
      return null;
    }
    if (!f.has("salt-buckets") && !f.has("column-family")) {
      problems.add(f.loc(), label, "storage needs salt-buckets, column-family or both");
      return null;
    }
    Long salt = f.integer("salt-buckets", 1, 256, null, false);
    String family = f.string("column-family", false);
    if (family != null && !family.matches("[A-Za-z0-9_]{1,32}")) {
      // Phoenix takes the name as a quoted literal; anything else would be a DDL injection or a bad family name
      problems.add(f.keyLoc("column-family"), label, "column-family must be 1-32 letters, digits or '_', not '" + family + "'");
      return null;
    }
    if (f.has("salt-buckets") && salt == null) {
      return null;
    }
    return new RuleSpec.Storage(salt == null ? null : salt.intValue(), family);
  }

  private ConflictStrategy strategy(String name, Loc loc) {
    ConflictStrategy s = ConflictStrategy.ofYaml(name);
    if (s == null) {
      problems.add(loc, label, "unknown conflict strategy '" + name + "' (source-wins, target-wins, newest-wins, fail, park)");
    }
    return s;
  }
}
