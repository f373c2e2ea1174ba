package io.gridway.admin;

import java.util.Locale;

/** What a user may do: a viewer reads, an operator also pauses and edits groups, an admin also manages users. */
public enum Role {
  VIEWER, OPERATOR, ADMIN;

  boolean allows(Role needed) {
    return compareTo(needed) >= 0;
  }

  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code viewer}, {@code operator} or {@code admin}; {@code null} for anything else. */
  static Role parse(String text) {
    for (Role r : values()) {
      if (r.wireName().equals(text)) {
        return r;
      }
    }
    return null;
  }
}
