package io.gridway.policy;

/**
 * One part (database or table) of a table pattern: {@code *} matches any run of characters, also
 * none, {@code ?} exactly one, {@code \} makes the next character literal; every other character,
 * including SQL's {@code _} and {@code %}, is itself. Matching is case-sensitive, as MySQL table
 * names are on Linux.
 *
 * <p>Compiled once: a pattern without wildcards is an equality test, {@code prefix*} a prefix test,
 * and only the general case runs the (linear-time, backtracking-on-last-star) matcher. Immutable and
 * thread-safe.
 */
final class Glob {
  private static final char STAR = '\uE000';
  private static final char ANY = '\uE001';

  private final String pattern;
  /** The pattern with wildcards replaced by private-use markers and escapes removed. */
  private final char[] tokens;
  private final Kind kind;
  private final String literal;

  private enum Kind {
    EXACT,
    PREFIX,
    ALL,
    GENERAL
  }

  private Glob(String pattern, char[] tokens) {
    this.pattern = pattern;
    this.tokens = tokens;
    int stars = 0;
    int anys = 0;
    for (char c : tokens) {
      stars += c == STAR ? 1 : 0;
      anys += c == ANY ? 1 : 0;
    }
    if (stars == 0 && anys == 0) {
      kind = Kind.EXACT;
      literal = new String(tokens);
    } else if (anys == 0 && stars == 1 && tokens[tokens.length - 1] == STAR) {
      kind = tokens.length == 1 ? Kind.ALL : Kind.PREFIX;
      literal = new String(tokens, 0, tokens.length - 1);
    } else {
      kind = Kind.GENERAL;
      literal = null;
    }
  }

  /**
   * Compiles one part of a pattern.
   *
   * @throws IllegalArgumentException when it is empty or ends in a lone backslash
   */
  static Glob compile(String pattern) {
    if (pattern.isEmpty()) {
      throw new IllegalArgumentException("empty name pattern");
    }
    StringBuilder tokens = new StringBuilder(pattern.length());
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        if (++i == pattern.length()) {
          throw new IllegalArgumentException("pattern ends with a lone backslash");
        }
        tokens.append(pattern.charAt(i));
      } else if (c == '*') {
        // Consecutive stars mean what one does.
        if (tokens.length() == 0 || tokens.charAt(tokens.length() - 1) != STAR) {
          tokens.append(STAR);
        }
      } else if (c == '?') {
        tokens.append(ANY);
      } else {
        tokens.append(c);
      }
    }
    return new Glob(pattern, tokens.toString().toCharArray());
  }

  boolean matches(String name) {
    return switch (kind) {
      case EXACT -> literal.equals(name);
      case PREFIX -> name.startsWith(literal);
      case ALL -> true;
      case GENERAL -> general(name);
    };
  }

  private boolean general(String name) {
    int p = 0;
    int n = 0;
    int star = -1;
    int resume = 0;
    while (n < name.length()) {
      if (p < tokens.length && tokens[p] != STAR && (tokens[p] == ANY || tokens[p] == name.charAt(n))) {
        p++;
        n++;
      } else if (p < tokens.length && tokens[p] == STAR) {
        star = p++;
        resume = n;
      } else if (star >= 0) {
        p = star + 1;
        n = ++resume;
      } else {
        return false;
      }
    }
    while (p < tokens.length && tokens[p] == STAR) {
      p++;
    }
    return p == tokens.length;
  }

  @Override
  public String toString() {
    return pattern;
  }
}
