package io.gridway.core.event;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * An immutable byte string: the value of a BINARY, VARBINARY, BLOB or GEOMETRY column.
 *
 * <p>Unlike {@code byte[]} it compares by content, so rows holding binary values compare equal when
 * their bytes are equal. Thread-safe.
 */
public final class Bytes {
  public static final Bytes EMPTY = new Bytes(new byte[0]);

  private final byte[] bytes;

  private Bytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A copy of the given bytes. */
  public static Bytes of(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone());
  }

  /**
   * Takes ownership of an array that the caller will never modify again: saves a copy of what may be
   * a megabyte-sized BLOB.
   */
  public static Bytes wrap(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Bytes(bytes);
  }

  public int length() {
    return bytes.length;
  }

  public byte get(int index) {
    return bytes[index];
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  /** A read-only view of the bytes, without copying. */
  public ByteBuffer asReadOnlyBuffer() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  /** Writes the bytes into a buffer, without an intermediate copy. */
  public void writeTo(ByteBuffer target) {
    target.put(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** Hex, abbreviated past 64 bytes. */
  @Override
  public String toString() {
    if (bytes.length <= 64) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    return "0x" + HexFormat.of().formatHex(bytes, 0, 64) + "…(" + bytes.length + " bytes)";
  }
}
