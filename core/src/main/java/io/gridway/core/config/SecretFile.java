package io.gridway.core.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a secret (a bearer token, a key store's password) that a config names by a file or an environment
 * variable, never by value: the YAML never holds it, so it is never in a config dump, a record's {@code toString} or a
 * config error. Stateless.
 */
public final class SecretFile {
  private SecretFile() {}

  /**
   * Checks that exactly one of {@code file} and {@code env} is given; {@code key} names the setting's prefix in the
   * error (for example {@code http.auth.tokens[0]}).
   */
  public static void requireOne(String file, String env, String key, String fileKey, String envKey) {
    if ((file == null) == (env == null)) {
      throw new IllegalArgumentException(key + ": set exactly one of " + fileKey + " and " + envKey);
    }
    if (env != null && env.isBlank()) {
      throw new IllegalArgumentException(key + "." + envKey + ": must not be empty");
    }
  }

  /**
   * The file's content without its trailing newline, or the variable's value; an unreadable file, an unset variable
   * or an empty secret is an {@link IllegalArgumentException} naming the setting, never the value.
   */
  public static String read(String file, String env, String key, Map<String, String> environment) {
    String value;
    if (file != null) {
      try {
        value = stripNewline(Files.readString(Path.of(file), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new IllegalArgumentException(key + ": cannot read " + file + " (" + e.getClass().getSimpleName()
            + "); check the path and its permissions", e);
      }
    } else {
      value = environment.get(env);
      if (value == null) {
        throw new IllegalArgumentException(key + ": environment variable " + env + " is not set");
      }
    }
    if (value.isEmpty()) {
      throw new IllegalArgumentException(key + ": the secret in " + (file != null ? file : "$" + env) + " is empty");
    }
    return value;
  }

  private static String stripNewline(String text) {
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return text.substring(0, end);
  }
}
