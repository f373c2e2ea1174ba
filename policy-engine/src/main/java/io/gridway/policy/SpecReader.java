package io.gridway.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a policy's YAML tree into a {@link PolicySpec}: the top-level keys and the list of rules,
 * leaving each rule's body to {@link RuleBodyReader}. Reports every problem it finds; the spec it
 * returns is only meaningful when none were found. Not thread-safe: one per file.
 */
final class SpecReader {
  static final Set<String> TOP_KEYS = Set.of(
      "name", "version", "description", "origin", "include", "exclude", "hash-key", "default-partition", "rules");
  static final Set<String> RULE_KEYS = Set.of("name", "description", "tables", "where", "columns", "partition", "route", "conflict",
      "unfit-values", "storage");
  static final List<String> BODY_KEYS = List.of("where", "columns", "partition", "route", "conflict", "unfit-values", "storage");

  private final Problems problems;

  private SpecReader(Problems problems) {
    this.problems = problems;
  }

  static PolicySpec read(YNode root, Problems problems) {
    return new SpecReader(problems).policy(root);
  }

  private PolicySpec policy(YNode root) {
    Fields top = Fields.of(root, "a policy", null, problems, TOP_KEYS);
    if (top == null) {
      return null;
    }
    String name = top.string("name", true);
    if (name != null && !isName(name)) {
      problems.add(top.keyLoc("name"), "name", "'" + name + "' is not a valid policy name (letters, digits, '_', '-', '.'; starting with a letter or digit)");
    }
    Long version = top.integer("version", 1, Long.MAX_VALUE, null, true);
    String description = top.string("description", false);
    String origin = top.string("origin", false);
    if (origin != null && (!isName(origin) || origin.length() > 64)) {
      problems.add(top.keyLoc("origin"), "origin", "'" + origin + "' is not a valid origin id (up to 64 letters, digits, '_', '-', '.')");
    }
    List<TablePattern> include = patterns(top, "include", "include");
    List<TablePattern> exclude = patterns(top, "exclude", "exclude");
    PolicySpec.HashKeySpec hashKey = top.has("hash-key") ? hashKey(top.node("hash-key")) : null;
    Long defaultPartition = top.integer("default-partition", 0, 0xFFFF, 0L, false);
    List<RuleSpec> rules = rules(top.node("rules"));
    return new PolicySpec(problems.file(), name, version == null ? 0 : version, description == null ? "" : description, origin,
        include, exclude, hashKey, defaultPartition == null ? 0 : defaultPartition.intValue(), rules);
  }

  private PolicySpec.HashKeySpec hashKey(YNode node) {
    Fields f = Fields.of(node, "hash-key (the key itself never appears in a policy: give env or file)", "hash-key", problems, Set.of("env", "file"));
    if (f == null) {
      return null;
    }
    String env = f.string("env", false);
    String file = f.string("file", false);
    if ((env == null) == (file == null)) {
      problems.add(node.loc(), "hash-key", "give exactly one of env (an environment variable) or file (a key file)");
      return null;
    }
    return new PolicySpec.HashKeySpec(env, file, node.loc());
  }

  private List<TablePattern> patterns(Fields fields, String key, String rule) {
    List<TablePattern> out = new ArrayList<>();
    for (YNode.YScalar s : fields.strings(key)) {
      try {
        out.add(TablePattern.parse(s.text(), s.loc()));
      } catch (IllegalArgumentException e) {
        problems.add(s.loc(), rule, e.getMessage());
      }
    }
    return out;
  }

  private List<RuleSpec> rules(YNode node) {
    List<RuleSpec> rules = new ArrayList<>();
    if (node == null) {
      return rules;
    }
    if (!(node instanceof YNode.YList list)) {
      problems.add(node.loc(), "rules", "rules must be a list, not " + node.kind());
      return rules;
    }
    Map<String, Loc> seen = new HashMap<>();
    for (int i = 0; i < list.items().size(); i++) {
      YNode item = list.items().get(i);
      String fallback = "rules[" + (i + 1) + "]";
      String name = item instanceof YNode.YMap m && m.entries().get("name") != null
          && m.entries().get("name").value() instanceof YNode.YScalar s ? s.text() : null;
      if (name != null) {
        Loc first = seen.putIfAbsent(name, item.loc());
        if (first != null) {
          problems.add(item.loc(), "rule '" + name + "'", "duplicate rule name '" + name + "' (first at line " + first.line() + ")");
        }
      }
      RuleSpec rule = rule(item, fallback);
      if (rule != null) {
        rules.add(rule);
      }
    }
    return rules;
  }

  private RuleSpec rule(YNode node, String fallback) {
    String name = null;
    if (node instanceof YNode.YMap m && m.entries().get("name") != null && m.entries().get("name").value() instanceof YNode.YScalar s) {
      name = s.text();
    }
    String label = name == null ? fallback : "rule '" + name + "'";
    Fields f = Fields.of(node, "a rule", label, problems, RULE_KEYS);
    if (f == null) {
      return null;
    }
    if (name == null) {
      problems.add(f.loc(), label, "a rule needs a name");
    } else if (!isName(name)) {
      problems.add(f.keyLoc("name"), label, "'" + name + "' is not a valid rule name (letters, digits, '_', '-', '.')");
    }
    List<String> bodies = BODY_KEYS.stream().filter(f::has).toList();
    if (bodies.size() != 1) {
      problems.add(f.loc(), label, bodies.isEmpty()
          ? "a rule needs one of " + String.join(", ", BODY_KEYS)
          : "a rule does one thing; this one has " + String.join(" and ", bodies) + " (split it into rules)");
      return null;
    }
    String kind = bodies.get(0);
    String fullLabel = label + " (" + kind + ")";
    List<TablePattern> tables = patterns(f, "tables", fullLabel);
    RuleSpec.Body body = new RuleBodyReader(problems, fullLabel).read(kind, f.node(kind));
    if (body == null || name == null) {
      return null;
    }
    return new RuleSpec(name, f.loc(), tables, body);
  }

  static boolean isName(String s) {
    if (s.isEmpty() || !Character.isLetterOrDigit(s.charAt(0))) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.'))) {
        return false;
      }
    }
    return true;
  }
}
