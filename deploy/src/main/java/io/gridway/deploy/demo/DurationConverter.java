package io.gridway.deploy.demo;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --duration} as the config files write durations: {@code 500ms}, {@code 20s}, {@code 5m}, {@code 1h}. */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher m = DURATION.matcher(value.trim());
    if (!m.matches()) {
      throw new TypeConversionException("'" + value + "' is not a duration (write for example 20s, 5m or 1h)");
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      default -> Duration.ofHours(amount);
    };
  }
}
