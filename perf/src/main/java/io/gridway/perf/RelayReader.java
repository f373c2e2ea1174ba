package io.gridway.perf;

import io.gridway.core.wire.FrameReader;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One reader of the relay's reader benchmark ({@code relay-read}, the relay issue's drain method): long-polls
 * {@code GET /v1/sources/perf/events?since=…&maxBytes=1MiB&waitMs=0} on one keep-alive connection from
 * SCN 0 until the window of {@code endScn}, no compression, nothing applied. It walks the frames by
 * header (type and length, counting EVENT frames, taking {@code since} from END_OF_WINDOW and HEARTBEAT)
 * and, with {@code decode}, also decodes every frame with core's {@link FrameReader} (CRC, payload, rows),
 * as a consumer must. A bare HTTP/1.1 client on a socket channel, so the reader's own cost stays small;
 * with a TLS context ({@code --tls}) the same client over a {@link TlsEngineChannel} in the consumer's TLS (BoringSSL
 * where it loads), unwrapping the body straight into its buffer. One instance per thread.
 */
final class RelayReader {
  static final int MAX_BYTES = 1 << 20;
  private static final int EVENT = 2;
  private static final int END_OF_WINDOW = 3;
  private static final int HEARTBEAT = 4;

  private final URI relay;
  private final boolean decode;
  private final SslContext tls; // null: plain HTTP

  RelayReader(URI relay, boolean decode, SslContext tls) {
    this.relay = relay;
    this.decode = decode;
    this.tls = tls;
  }

  /** What one reader read: EVENT frames and response body bytes. */
  record Read(long events, long bytes) {}

  Read readAll(long endScn) throws IOException {
    ByteBuffer body = ByteBuffer.allocateDirect(MAX_BYTES + (64 << 20)); // a window larger than maxBytes comes whole
    ByteBuffer head = ByteBuffer.allocate(8192);
    FrameReader reader = decode ? new FrameReader() : null;
    long since = 0;
    long events = 0;
    long bytes = 0;
    try (ByteChannel channel = connect()) {
      while (Long.compareUnsigned(since, endScn) < 0) {
        channel.write(StandardCharsets.US_ASCII.encode(String.format(Locale.ROOT,
            "GET /v1/sources/perf/events?since=%s&maxBytes=%d&waitMs=1000 HTTP/1.1\r\nHost: perf\r\n\r\n",
            Long.toUnsignedString(since), MAX_BYTES)));
        int length = readHead(channel, head, body);
        if (length > body.capacity()) {
          throw new IOException("a response of " + length + " bytes is larger than the reader's buffer");
        }
        while (body.position() < length) {
          if (channel.read(body) < 0) {
            throw new IOException("the relay closed the connection mid-response");
          }
        }
        body.flip();
        for (int pos = 0; pos < length; ) {
          int type = body.get(pos + 3);
          if (type == EVENT) {
            events++;
          } else if (type == END_OF_WINDOW || type == HEARTBEAT) {
            since = body.getLong(pos + 12);
          }
          pos += 12 + body.getInt(pos + 4);
        }
        if (reader != null) {
          body.position(0).limit(length);
          while (reader.next(body) != null) {
            // decodes and verifies every frame: the cost a consumer pays
          }
        }
        bytes += length;
        body.clear();
      }
    }
    return new Read(events, bytes);
  }

  /** One keep-alive connection: a socket channel, or a TLS connection over one. */
  private ByteChannel connect() throws IOException {
    if (tls != null) {
      return TlsEngineChannel.connect(relay, tls);
    }
    SocketChannel channel = SocketChannel.open(new InetSocketAddress(relay.getHost(), relay.getPort()));
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    return channel;
  }

  /** Reads the response head; returns Content-Length and leaves the body bytes already read in {@code body}. */
  private static int readHead(ReadableByteChannel channel, ByteBuffer head, ByteBuffer body) throws IOException {
    head.clear();
    while (true) {
      if (channel.read(head) < 0) {
        throw new IOException("the relay closed the connection");
      }
      String text = new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        if (!text.startsWith("HTTP/1.1 200")) {
          throw new IOException("the relay answered " + text.substring(0, Math.min(300, text.length())));
        }
        String fields = text.substring(0, end + 2).toLowerCase(Locale.ROOT); // the head only, not the body read with it
        int at = fields.indexOf("content-length:");
        if (at < 0) {
          throw new IOException("a long-poll response without Content-Length: " + text.substring(0, end));
        }
        int length = Integer.parseInt(fields.substring(at + 15, fields.indexOf("\r\n", at)).trim());
        body.put(head.array(), end + 4, head.position() - end - 4);
        return length;
      }
      if (!head.hasRemaining()) {
        throw new IOException("a response head over " + head.capacity() + " bytes");
      }
    }
  }
}
