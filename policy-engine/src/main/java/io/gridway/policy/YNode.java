package io.gridway.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value with the position it was read from: what {@link SpecReader} walks, so that every
 * error it reports can name the line and column. Immutable once {@link YamlReader} returns it.
 */
sealed interface YNode {
  Loc loc();

  /** What an operator would call this kind of value, for "expected a list, found a mapping". */
  String kind();

  /** A mapping, keys in file order. Each entry keeps the key's own position. */
  record YMap(Loc loc, Map<String, Entry> entries) implements YNode {
    public YMap {
      entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    @Override
    public String kind() {
      return "a mapping";
    }
  }

  /** One key of a mapping: where the key is and its value. */
  record Entry(String key, Loc keyLoc, YNode value) {}

  /** A sequence. */
  record YList(Loc loc, List<YNode> items) implements YNode {
    public YList {
      items = List.copyOf(items);
    }

    @Override
    public String kind() {
      return "a list";
    }
  }

  /**
   * A scalar: its text and what YAML resolved it to, so that {@code version: "3"} (a string) and
   * {@code version: 3} (an integer) can be told apart.
   */
  record YScalar(Loc loc, String text, Type type) implements YNode {
    enum Type {
      STRING,
      INTEGER,
      FLOAT,
      BOOLEAN,
      NULL
    }

    @Override
    public String kind() {
      return switch (type) {
        case STRING -> "a string";
        case INTEGER -> "an integer";
        case FLOAT -> "a number";
        case BOOLEAN -> "a boolean";
        case NULL -> "nothing (null)";
      };
    }
  }
}
