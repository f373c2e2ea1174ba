package io.gridway.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A target name in a {@code route} rule: literal text with {@code {database}} and {@code {table}}
 * standing for the source names, for example {@code "{table}_archive"}. Parsed once into parts.
 * Immutable and thread-safe.
 */
final class NameTemplate {
  private enum Placeholder {
    DATABASE("{database}"),
    TABLE("{table}");

    final String text;

    Placeholder(String text) {
      this.text = text;
    }
  }

  /** Each part is a literal {@code String} or a {@link Placeholder}. */
  private final List<Object> parts;

  private NameTemplate(List<Object> parts) {
    this.parts = List.copyOf(parts);
  }

  /** Why a template is malformed, or null when it is fine. */
  static String check(String template) {
    if (template.isEmpty()) {
      return "an empty name";
    }
    int i = 0;
    while ((i = template.indexOf('{', i)) >= 0) {
      if (placeholderAt(template, i) == null) {
        int end = template.indexOf('}', i);
        return "unknown placeholder " + (end < 0 ? template.substring(i) : template.substring(i, end + 1)) + " (only {database} and {table})";
      }
      i++;
    }
    return null;
  }

  private static Placeholder placeholderAt(String template, int i) {
    for (Placeholder p : Placeholder.values()) {
      if (template.startsWith(p.text, i)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Parses a template that {@link #check} accepted. A null template keeps the source's name: the
   * database's when {@code database} is true, else the table's.
   */
  static NameTemplate parse(String template, boolean database) {
    List<Object> parts = new ArrayList<>();
    if (template == null) {
      parts.add(database ? Placeholder.DATABASE : Placeholder.TABLE);
      return new NameTemplate(parts);
    }
    int i = 0;
    while (i < template.length()) {
      int open = template.indexOf('{', i);
      if (open < 0) {
        parts.add(template.substring(i));
        break;
      }
      if (open > i) {
        parts.add(template.substring(i, open));
      }
      Placeholder p = placeholderAt(template, open);
      parts.add(p);
      i = open + p.text.length();
    }
    return new NameTemplate(parts);
  }

  String apply(String database, String table) {
    StringBuilder out = new StringBuilder();
    for (Object part : parts) {
      out.append(part == Placeholder.DATABASE ? database : part == Placeholder.TABLE ? table : (String) part);
    }
    return out.toString();
  }
}
