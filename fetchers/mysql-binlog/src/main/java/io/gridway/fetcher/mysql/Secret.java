package io.gridway.fetcher.mysql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A password read from a file or an environment variable. Its {@code toString} never shows it, so it
 * cannot leak into a log line or an exception message by accident. A file that cannot be read or a variable
 * that is not set is an {@link IllegalArgumentException}: the operator must fix the setting (exit code 2),
 * restarting cannot help. Immutable.
 */
final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /** Reads the password the config points at: the file's content without its trailing newline, or the variable. */
  static Secret resolve(MysqlFetcherConfig config, Map<String, String> environment) {
    if (config.passwordFile() != null) {
      Path file = Path.of(config.passwordFile());
      try {
        return new Secret(stripNewline(Files.readString(file, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read passwordFile " + file + ": " + e.getClass().getSimpleName()
            + " (" + e.getMessage() + "); check the path and its permissions", e);
      }
    }
    String value = environment.get(config.passwordEnv());
    if (value == null) {
      throw new IllegalArgumentException("environment variable " + config.passwordEnv()
          + " (passwordEnv) is not set; export it before starting the relay");
    }
    return new Secret(value);
  }

  private static String stripNewline(String text) {
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return text.substring(0, end);
  }

  String reveal() {
    return value;
  }

  @Override
  public String toString() {
    return "******";
  }
}
