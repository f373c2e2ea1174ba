package io.gridway.policy;

import io.gridway.core.event.Bytes;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * HMAC-SHA-256 (RFC 2104) with a fixed key, for the {@code hash} column rule.
 *
 * <p>The digests of {@code key XOR ipad} and {@code key XOR opad} are computed once and cloned per
 * value, which saves two of the four SHA-256 blocks that {@code javax.crypto.Mac} processes for a
 * short value; the output is the standard HMAC (RFC 4231 vectors in {@code HmacSha256Test}).
 *
 * <p>A value is hashed as the UTF-8 bytes of its canonical text, so an operator can reproduce a hash
 * with any HMAC tool ({@code printf %s VALUE | openssl dgst -sha256 -hmac KEY}): strings as they are,
 * integers in decimal, DECIMAL as plain digits (its column's scale), FLOAT/DOUBLE as Java prints a
 * double, binary values as their raw bytes, temporal values as ISO-8601 ({@code java.time}'s text),
 * zero dates as MySQL prints them. The result is 64 lowercase hex digits.
 *
 * <p>Thread-safe: the two prototypes are never updated, only cloned.
 */
final class HmacSha256 {
  private static final int BLOCK = 64;
  private static final int LENGTH = 32;
  private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final MessageDigest inner;
  private final MessageDigest outer;

  HmacSha256(byte[] key) {
    byte[] k = key.length > BLOCK ? sha256().digest(key) : key;
    byte[] ipad = new byte[BLOCK];
    byte[] opad = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      byte kb = i < k.length ? k[i] : 0;
      ipad[i] = (byte) (kb ^ 0x36);
      opad[i] = (byte) (kb ^ 0x5c);
    }
    inner = sha256();
    inner.update(ipad);
    outer = sha256();
    outer.update(opad);
    Arrays.fill(ipad, (byte) 0);
    Arrays.fill(opad, (byte) 0);
  }

  byte[] mac(byte[] message) {
    byte[] result = new byte[LENGTH];
    mac(message, result);
    return result;
  }

  /** The MAC of {@code message} into {@code result}, which also holds the inner digest meanwhile. */
  private void mac(byte[] message, byte[] result) {
    MessageDigest in = copy(inner);
    in.update(message);
    MessageDigest out = copy(outer);
    try {
      in.digest(result, 0, LENGTH);
      out.update(result);
      out.digest(result, 0, LENGTH);
    } catch (DigestException e) {
      throw new IllegalStateException("SHA-256 output does not fit 32 bytes", e);
    }
  }

  /**
   * The hex HMAC of a row value's canonical text (see the class comment). Per value: the two SHA-256
   * blocks (about 110 ns each of CPU with the SHA instructions), two prototype clones and three small
   * arrays; the hex digits are written as Latin-1 bytes, which a compact String takes over as they are.
   */
  String hex(Object value) {
    byte[] mac = new byte[LENGTH];
    mac(canonicalBytes(value), mac);
    byte[] text = new byte[2 * LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      text[2 * i] = DIGITS[(mac[i] >> 4) & 0xf];
      text[2 * i + 1] = DIGITS[mac[i] & 0xf];
    }
    return new String(text, StandardCharsets.ISO_8859_1);
  }

  static byte[] canonicalBytes(Object value) {
    if (value instanceof Bytes b) {
      return b.toByteArray();
    }
    String text = value instanceof BigDecimal d ? d.toPlainString()
        : value instanceof Float f ? Double.toString(f.doubleValue())
        : value.toString();
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static MessageDigest copy(MessageDigest prototype) {
    try {
      return (MessageDigest) prototype.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the platform's SHA-256 cannot be cloned", e);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
