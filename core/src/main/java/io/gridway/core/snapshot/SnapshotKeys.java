package io.gridway.core.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.event.Bytes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A snapshot cursor key as it travels between relay and consumer (the {@code after} parameter, the chunk's cursor
 * headers): a JSON array of the key's values, integers as JSON numbers (BIGINT UNSIGNED beyond 2^63 too), binary values
 * as {@code {"hex": "…"}} and everything else as the string the relay writes. One reader for both sides, so a key
 * the consumer stored is read back exactly as the relay will read it.
 */
public final class SnapshotKeys {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SnapshotKeys() {}

  /**
   * The values of {@code json}: {@link Long} or {@link java.math.BigInteger} for integers, {@link String}, {@link Bytes}.
   *
   * @throws IllegalArgumentException naming what is wrong (not JSON, not a non-empty array, a value of another kind)
   */
  public static List<Object> parse(String json) {
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("is not JSON: " + e.getOriginalMessage(), e);
    }
    if (node == null || !node.isArray() || node.isEmpty()) {
      throw new IllegalArgumentException("must be a non-empty JSON array of key values, not " + printable(json));
    }
    List<Object> key = new ArrayList<>(node.size());
    for (JsonNode v : node) {
      if (v.isIntegralNumber()) {
        key.add(v.canConvertToLong() ? (Object) v.longValue() : v.bigIntegerValue());
      } else if (v.isTextual()) {
        key.add(v.textValue());
      } else if (v.isObject() && v.size() == 1 && v.path("hex").isTextual()) {
        try {
          key.add(Bytes.wrap(HexFormat.of().parseHex(v.path("hex").textValue())));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("hex value is not hexadecimal: " + printable(v.toString()), e);
        }
      } else {
        throw new IllegalArgumentException("key values are numbers, strings or {\"hex\": …}, not " + printable(v.toString()));
      }
    }
    return key;
  }

  /** At most 64 characters of {@code text}, control characters as '?': safe to echo in an error. */
  private static String printable(String text) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), 64));
    for (int i = 0; i < text.length() && i < 64; i++) {
      char c = text.charAt(i);
      out.append(c < 0x20 || c == 0x7F ? '?' : c);
    }
    return text.length() > 64 ? out.append('…').toString() : out.toString();
  }
}
