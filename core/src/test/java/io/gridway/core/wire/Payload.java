package io.gridway.core.wire;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Builds payloads field by field, straight from the tables of {@code docs/wire-format.md}, to make
 * frames the encoder would never write (wrong lengths, bad codes) and to check the encoder against
 * an independent reading of the spec.
 */
final class Payload {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  Payload u8(int v) {
    bytes.write(v);
    return this;
  }

  Payload u16(int v) {
    return raw(ByteBuffer.allocate(2).putShort((short) v).array());
  }

  Payload u32(long v) {
    return raw(ByteBuffer.allocate(4).putInt((int) v).array());
  }

  Payload i64(long v) {
    return raw(ByteBuffer.allocate(8).putLong(v).array());
  }

  Payload name(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return u16(utf8.length).raw(utf8);
  }

  Payload blob(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return u32(utf8.length).raw(utf8);
  }

  Payload raw(byte... b) {
    bytes.writeBytes(b);
    return this;
  }

  /** The fixed EVENT fields and an empty origin (§4). */
  static Payload eventHeader(long schemaId, int op, int flags) {
    return new Payload().i64(100).i64(200).i64(schemaId).u16(7).u8(op).u8(flags).name("");
  }

  /** A column of a SCHEMA payload (§3). */
  Payload column(String name, int typeCode, int flags, long length, int precision, int scale, String charset,
      String... members) {
    name(name).u8(typeCode).u8(flags).u32(length).u8(precision).u8(scale).name(charset).u16(members.length);
    for (String m : members) {
      name(m);
    }
    return this;
  }

  byte[] toBytes() {
    return bytes.toByteArray();
  }

  byte[] frame(FrameType type) {
    return Frames.frame(type.code(), toBytes());
  }
}
