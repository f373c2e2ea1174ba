package io.gridway.perf;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** The latency run's options ({@code latency} and {@code all}), as a picocli mixin. */
final class LatencyOptions {
  @Option(names = "--rate", defaultValue = "5000", description = "transactions per second (default ${DEFAULT-VALUE})")
  double rate;

  @Option(names = "--duration", defaultValue = "60s", converter = DurationConverter.class,
      description = "how long the steady workload runs, e.g. 60s, 2m (default ${DEFAULT-VALUE})")
  Duration duration;

  /**
   * Not recorded. 30 s because shorter ones measured warm-up, not the grid: with the earlier 6–10 s, the JIT
   * compilers of the relay and the consumer (starved of CPU by the source's 32 writers) and MariaDB itself were
   * still settling, and the first 20 s of the recorded window held most of the 100–450 ms episodes (p99 120–190 ms);
   * after 40 s of warm-up the same run's p99 was 22 ms (perf/RESULTS.md, Latency).
   */
  @Option(names = "--latency-warmup", converter = DurationConverter.class,
      description = "how long the writer runs at the rate before latencies are recorded (default 30s; 2s with --quick)")
  Duration warmUp;

  /** The warm-up: the option, else 30 s, or 2 s for a smoke run. */
  Duration warmUp(boolean quick) {
    if (warmUp != null) {
      if (warmUp.isNegative()) {
        throw new IllegalArgumentException("--latency-warmup must not be negative, not " + warmUp);
      }
      return warmUp;
    }
    return quick ? Duration.ofSeconds(2) : Duration.ofSeconds(30);
  }

  /** "60s", "2m", "500ms" or an ISO-8601 duration. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String v = value.trim().toLowerCase(Locale.ROOT);
      if (v.startsWith("pt")) {
        return Duration.parse(v);
      }
      try {
        if (v.endsWith("ms")) {
          return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        long n = Long.parseLong(v.substring(0, v.length() - 1));
        return switch (v.charAt(v.length() - 1)) {
          case 's' -> Duration.ofSeconds(n);
          case 'm' -> Duration.ofMinutes(n);
          case 'h' -> Duration.ofHours(n);
          default -> throw new IllegalArgumentException("a duration like 60s, 2m or 500ms, not " + value);
        };
      } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
        throw new IllegalArgumentException("a duration like 60s, 2m or 500ms, not " + value, e);
      }
    }
  }
}
