package io.gridway.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Typed access to one YAML mapping of a policy, reporting every problem (unknown key, wrong type,
 * missing value) with its position and the rule it belongs to. Getters return null (or an empty
 * collection) after reporting, so reading goes on and all problems are found in one pass. Not
 * thread-safe: one per mapping read.
 */
final class Fields {
  private final YNode.YMap map;
  private final String rule;
  private final Problems problems;

  private Fields(YNode.YMap map, String rule, Problems problems) {
    this.map = map;
    this.rule = rule;
    this.problems = problems;
  }

  /**
   * The mapping a node must be, with its keys checked against the allowed ones; null (after
   * reporting) when the node is not a mapping.
   */
  static Fields of(YNode node, String what, String rule, Problems problems, Set<String> allowed) {
    if (!(node instanceof YNode.YMap m)) {
      problems.add(node.loc(), rule, what + " must be a mapping, not " + node.kind());
      return null;
    }
    for (YNode.Entry e : m.entries().values()) {
      if (!allowed.contains(e.key())) {
        problems.add(e.keyLoc(), rule, "unknown key '" + e.key() + "' in " + what + " (allowed: " + String.join(", ", sorted(allowed)) + ")");
      }
    }
    return new Fields(m, rule, problems);
  }

  private static List<String> sorted(Set<String> keys) {
    List<String> list = new ArrayList<>(keys);
    list.sort(null);
    return list;
  }

  Loc loc() {
    return map.loc();
  }

  boolean has(String key) {
    return map.entries().containsKey(key);
  }

  YNode node(String key) {
    YNode.Entry e = map.entries().get(key);
    return e == null ? null : e.value();
  }

  Loc keyLoc(String key) {
    YNode.Entry e = map.entries().get(key);
    return e == null ? map.loc() : e.keyLoc();
  }

  /** A required or optional string (numbers and booleans are accepted as their text). */
  String string(String key, boolean required) {
    YNode node = node(key);
    if (node == null) {
      if (required) {
        problems.add(map.loc(), rule, "missing required key '" + key + "'");
      }
      return null;
    }
    return text(node, key);
  }

  String text(YNode node, String what) {
    if (node instanceof YNode.YScalar s && s.type() != YNode.YScalar.Type.NULL) {
      return s.text();
    }
    problems.add(node.loc(), rule, what + " must be a string, not " + node.kind());
    return null;
  }

  /** An integer in {@code [min, max]}, or {@code absent} when the key is missing. */
  Long integer(String key, long min, long max, Long absent, boolean required) {
    YNode node = node(key);
    if (node == null) {
      if (required) {
        problems.add(map.loc(), rule, "missing required key '" + key + "'");
      }
      return absent;
    }
    return integer(node, key, min, max);
  }

  Long integer(YNode node, String what, long min, long max) {
    if (!(node instanceof YNode.YScalar s) || s.type() != YNode.YScalar.Type.INTEGER) {
      problems.add(node.loc(), rule, what + " must be an integer, not " + node.kind());
      return null;
    }
    long value;
    try {
      value = Long.parseLong(s.text());
    } catch (NumberFormatException e) {
      problems.add(node.loc(), rule, what + " " + s.text() + " is not a 64-bit integer");
      return null;
    }
    if (value < min || value > max) {
      problems.add(node.loc(), rule, what + " must be in " + min + ".." + max + ", not " + value);
      return null;
    }
    return value;
  }

  /** A list of strings; a single string is accepted as a list of one. */
  List<YNode.YScalar> strings(String key) {
    YNode node = node(key);
    List<YNode.YScalar> out = new ArrayList<>();
    if (node == null) {
      return out;
    }
    List<YNode> items = node instanceof YNode.YList l ? l.items() : List.of(node);
    for (YNode item : items) {
      if (item instanceof YNode.YScalar s && s.type() != YNode.YScalar.Type.NULL) {
        out.add(s);
      } else {
        problems.add(item.loc(), rule, key + " must be a list of strings; found " + item.kind());
      }
    }
    return out;
  }

  /** A mapping of string keys to scalar values, in file order. */
  Map<YNode.Entry, YNode.YScalar> scalarMap(String key) {
    YNode node = node(key);
    Map<YNode.Entry, YNode.YScalar> out = new LinkedHashMap<>();
    if (node == null) {
      return out;
    }
    if (!(node instanceof YNode.YMap m)) {
      problems.add(node.loc(), rule, key + " must be a mapping, not " + node.kind());
      return out;
    }
    for (YNode.Entry e : m.entries().values()) {
      if (e.value() instanceof YNode.YScalar s) {
        out.put(e, s);
      } else {
        problems.add(e.value().loc(), rule, key + "." + e.key() + " must be a single value, not " + e.value().kind());
      }
    }
    return out;
  }

  void problem(Loc loc, String reason) {
    problems.add(loc, rule, reason);
  }
}
