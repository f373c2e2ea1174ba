package io.gridway.fetcher.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which tables a fetcher captures: {@code db.table} globs ({@code *} any run of characters, {@code ?}
 * one character), compiled once. A table is captured when it matches an include glob (or the include
 * list is empty) and no exclude glob. Names compare case-sensitively, as MySQL on Linux does.
 *
 * <p>Evaluated once per table definition (the table registry caches the answer), never per row.
 * Immutable and thread-safe. The policy engine takes this job over later.
 */
final class TableFilter {
  private static final TableFilter ALL = new TableFilter(List.of(), List.of());

  private final List<Pattern> include;
  private final List<Pattern> exclude;

  private TableFilter(List<Pattern> include, List<Pattern> exclude) {
    this.include = include;
    this.exclude = exclude;
  }

  static TableFilter all() {
    return ALL;
  }

  static TableFilter of(List<String> include, List<String> exclude) {
    return new TableFilter(compile(include, "include"), compile(exclude, "exclude"));
  }

  boolean captures(String database, String table) {
    String name = database + "." + table;
    boolean included = include.isEmpty();
    for (Pattern p : include) {
      if (p.matcher(name).matches()) {
        included = true;
        break;
      }
    }
    if (!included) {
      return false;
    }
    for (Pattern p : exclude) {
      if (p.matcher(name).matches()) {
        return false;
      }
    }
    return true;
  }

  private static List<Pattern> compile(List<String> globs, String key) {
    List<Pattern> patterns = new ArrayList<>(globs.size());
    for (String glob : globs) {
      if (glob == null || glob.indexOf('.') <= 0 || glob.indexOf('.') == glob.length() - 1) {
        throw new IllegalArgumentException(key + ": '" + glob + "' is not a db.table glob (for example shop.* or *.orders)");
      }
      patterns.add(Pattern.compile(toRegex(glob)));
    }
    return List.copyOf(patterns);
  }

  private static String toRegex(String glob) {
    StringBuilder regex = new StringBuilder(glob.length() + 8);
    int dot = glob.indexOf('.');
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '*') {
        // a star never crosses the db/table dot, so "shop*" cannot match "shopping.x" by accident
        regex.append(i < dot ? "[^.]*" : ".*");
      } else if (c == '?') {
        regex.append(i < dot ? "[^.]" : ".");
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return regex.toString();
  }
}
