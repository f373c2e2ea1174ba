package io.gridway.core.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A size in bytes, written in configuration as a plain number of bytes or with a binary unit:
 * {@code 512KiB}, {@code 64MiB}, {@code 1GiB}, {@code 2TiB} (also {@code k}, {@code m}, {@code g},
 * {@code t}, {@code KB}, {@code MB}, {@code GB}, {@code TB}, all meaning powers of 1024).
 */
public record ByteSize(long bytes) implements Comparable<ByteSize> {
  public ByteSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("a size cannot be negative: " + bytes);
    }
  }

  public static ByteSize ofMebibytes(long mebibytes) {
    return new ByteSize(Math.multiplyExact(mebibytes, 1L << 20));
  }

  @JsonCreator
  public static ByteSize parse(Object value) {
    if (value instanceof Number number) {
      return new ByteSize(number.longValue());
    }
    String text = String.valueOf(value).trim();
    int split = 0;
    while (split < text.length() && (Character.isDigit(text.charAt(split)) || text.charAt(split) == '.')) {
      split++;
    }
    if (split == 0) {
      throw new IllegalArgumentException("'" + text + "' is not a size (write for example 64MiB or 1GiB)");
    }
    String unit = text.substring(split).trim().toLowerCase(Locale.ROOT);
    long multiplier = switch (unit) {
      case "", "b" -> 1L;
      case "k", "kb", "kib" -> 1L << 10;
      case "m", "mb", "mib" -> 1L << 20;
      case "g", "gb", "gib" -> 1L << 30;
      case "t", "tb", "tib" -> 1L << 40;
      default -> throw new IllegalArgumentException("unknown size unit '" + unit + "' in '" + text + "' (use KiB, MiB, GiB or TiB)");
    };
    double amount = Double.parseDouble(text.substring(0, split));
    double bytes = amount * multiplier;
    if (bytes > Long.MAX_VALUE) {
      throw new IllegalArgumentException("'" + text + "' is too large");
    }
    return new ByteSize((long) bytes);
  }

  @Override
  public int compareTo(ByteSize other) {
    return Long.compare(bytes, other.bytes);
  }

  @JsonValue
  @Override
  public String toString() {
    for (String unit : new String[] {"TiB", "GiB", "MiB", "KiB"}) {
      long size = switch (unit) {
        case "TiB" -> 1L << 40;
        case "GiB" -> 1L << 30;
        case "MiB" -> 1L << 20;
        default -> 1L << 10;
      };
      if (bytes >= size && bytes % size == 0) {
        return bytes / size + unit;
      }
    }
    return Long.toString(bytes);
  }
}
