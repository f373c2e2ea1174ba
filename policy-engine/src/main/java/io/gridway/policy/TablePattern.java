package io.gridway.policy;

/**
 * A {@code database.table} pattern: two {@link Glob}s split at the first unescaped dot, so that
 * {@code *} never reaches across the dot ({@code shop*.*} matches {@code shop2.orders}, not a table
 * named {@code orders} in a database {@code shop.x}). A literal dot in a name is written {@code \.}.
 *
 * @param text the pattern as written
 * @param loc where it is written
 */
record TablePattern(String text, Loc loc, Glob database, Glob table) {

  /**
   * @throws IllegalArgumentException with the reason when the pattern is malformed
   */
  static TablePattern parse(String text, Loc loc) {
    int dot = -1;
    int dots = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '.') {
        dots++;
        if (dot < 0) {
          dot = i;
        }
      }
    }
    if (dots == 0) {
      throw new IllegalArgumentException("table pattern '" + text + "' must be database.table (use *.* for every table)");
    }
    if (dots > 1) {
      throw new IllegalArgumentException("table pattern '" + text + "' has more than one dot; write a literal dot as \\.");
    }
    try {
      return new TablePattern(text, loc, Glob.compile(text.substring(0, dot)), Glob.compile(text.substring(dot + 1)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("table pattern '" + text + "': " + e.getMessage(), e);
    }
  }

  boolean matches(String databaseName, String tableName) {
    return database.matches(databaseName) && table.matches(tableName);
  }

  @Override
  public String toString() {
    return text;
  }
}
