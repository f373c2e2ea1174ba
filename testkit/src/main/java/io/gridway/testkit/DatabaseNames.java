package io.gridway.testkit;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Unique database names within one server: {@code <prefix>_<n>}, lower case so that MariaDB and
 * PostgreSQL agree on them unquoted. Thread-safe.
 */
final class DatabaseNames {
  private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,40}");
  private final AtomicInteger counter = new AtomicInteger();

  String next(String prefix) {
    String lower = prefix.toLowerCase(Locale.ROOT);
    if (!PREFIX.matcher(lower).matches()) {
      throw new IllegalArgumentException(
          "database prefix must match " + PREFIX + " (case-insensitive), was '" + prefix + "'");
    }
    return lower + "_" + counter.incrementAndGet();
  }
}
