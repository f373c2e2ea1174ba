package io.gridway.core.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Reads durations the way operators write them: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h},
 * {@code 2d}, or a bare number of milliseconds. ISO-8601 ({@code PT30S}) is accepted too.
 */
final class DurationParser {
  private DurationParser() {}

  static Duration parse(String raw) {
    String text = raw.trim();
    if (text.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    if (text.startsWith("P") || text.startsWith("p")) {
      return Duration.parse(text.toUpperCase(Locale.ROOT));
    }
    int split = 0;
    while (split < text.length() && Character.isDigit(text.charAt(split))) {
      split++;
    }
    if (split == 0) {
      throw new IllegalArgumentException("'" + raw + "' is not a duration (write for example 500ms, 30s or 5m)");
    }
    long amount = Long.parseLong(text.substring(0, split));
    return switch (text.substring(split).trim().toLowerCase(Locale.ROOT)) {
      case "", "ms" -> Duration.ofMillis(amount);
      case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000L));
      case "s" -> Duration.ofSeconds(amount);
      case "m", "min" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      case "d" -> Duration.ofDays(amount);
      default -> throw new IllegalArgumentException("unknown duration unit in '" + raw + "' (use ms, s, m, h or d)");
    };
  }
}
