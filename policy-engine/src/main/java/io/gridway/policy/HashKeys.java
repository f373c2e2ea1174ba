package io.gridway.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Reads the HMAC key of {@code hash} rules from where a policy's {@code hash-key} says: an
 * environment variable (its UTF-8 bytes) or a file (its bytes, without trailing whitespace, so a
 * key written by {@code echo} works). A relative file is relative to the policy file. The key must
 * be at least 16 bytes. Stateless and thread-safe.
 */
final class HashKeys {
  static final int MIN_BYTES = 16;

  private HashKeys() {}

  /**
   * @throws IllegalArgumentException with the reason when the key cannot be had
   */
  static byte[] resolve(PolicySpec.HashKeySpec spec, Path policyDir, Function<String, String> environment) {
    byte[] key;
    String where;
    if (spec.env() != null) {
      String value = environment.apply(spec.env());
      if (value == null || value.isEmpty()) {
        throw new IllegalArgumentException("environment variable " + spec.env() + " is not set");
      }
      key = value.getBytes(StandardCharsets.UTF_8);
      where = "environment variable " + spec.env();
    } else {
      Path file = policyDir.resolve(spec.file());
      try {
        key = trimTrailingWhitespace(Files.readAllBytes(file));
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException("key file " + file + " does not exist", e);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read key file " + file + ": " + e.getMessage(), e);
      }
      where = "key file " + file;
    }
    if (key.length < MIN_BYTES) {
      throw new IllegalArgumentException(where + " holds " + key.length + " bytes; a hash key needs at least " + MIN_BYTES);
    }
    return key;
  }

  private static byte[] trimTrailingWhitespace(byte[] bytes) {
    int end = bytes.length;
    while (end > 0 && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r' || bytes[end - 1] == ' ' || bytes[end - 1] == '\t')) {
      end--;
    }
    return Arrays.copyOf(bytes, end);
  }
}
