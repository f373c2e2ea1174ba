package io.gridway.applier.jdbc;

import io.gridway.core.event.Bytes;
import io.gridway.core.schema.DeclaredType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The text form of a MariaDB UUID/INET4/INET6 value, which the binlog carries as its bytes (UUID in text order,
 * addresses in network order — checked against MariaDB's own {@code HEX()} by the fetcher's {@code DeclaredTypesIT}):
 * what PostgreSQL's {@code uuid} and {@code inet} read. Stateless.
 */
final class DeclaredText {
  private DeclaredText() {}

  static String of(DeclaredType type, Bytes value) {
    byte[] b = value.toByteArray();
    if (b.length != type.length()) {
      // not the binlog's form: a snapshot of a fetcher that read the server's text form; pass that text on
      return new String(b, StandardCharsets.UTF_8);
    }
    return switch (type) {
      case UUID -> {
        ByteBuffer buf = ByteBuffer.wrap(b);
        yield new java.util.UUID(buf.getLong(), buf.getLong()).toString();
      }
      case INET4 -> (b[0] & 0xFF) + "." + (b[1] & 0xFF) + "." + (b[2] & 0xFF) + "." + (b[3] & 0xFF);
      case INET6 -> {
        // eight uncompressed groups: PostgreSQL's inet input takes them and prints its own canonical form
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 16; i += 2) {
          sb.append(i == 0 ? "" : ":").append(Integer.toHexString((b[i] & 0xFF) << 8 | b[i + 1] & 0xFF));
        }
        yield sb.toString();
      }
    };
  }
}
