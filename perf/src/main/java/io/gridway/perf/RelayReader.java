package io.gridway.perf;

import io.gridway.core.wire.FrameReader;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * One reader of the relay's reader benchmark ({@code relay-read}, the relay issue's drain method): long-polls
 * {@code GET /v1/sources/perf/events?since=…&maxBytes=1MiB&waitMs=0} on one keep-alive connection from
 * SCN 0 until the window of {@code endScn}, no compression, nothing applied. It walks the frames by
 * header (type and length, counting EVENT frames, taking {@code since} from END_OF_WINDOW and HEARTBEAT)
 * and, with {@code decode}, also decodes every frame with core's {@link FrameReader} (CRC, payload, rows),
 * as a consumer must. A bare HTTP/1.1 client on a socket channel, so the reader's own cost stays small;
 * with a TLS context ({@code --tls}) the same client on an {@link SSLSocket} (its input read a TLS record at a time
 * into the body buffer: one more copy per record, small beside decrypting it). One instance per thread.
 */
final class RelayReader {
  static final int MAX_BYTES = 1 << 20;
  private static final int EVENT = 2;
  private static final int END_OF_WINDOW = 3;
  private static final int HEARTBEAT = 4;

  private final URI relay;
  private final boolean decode;
  private final SSLContext tls; // null: plain HTTP

  RelayReader(URI relay, boolean decode, SSLContext tls) {
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
    try (Connection channel = connect()) {
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

  /** One keep-alive connection: a socket channel, or an SSL socket's streams as channels. */
  private interface Connection extends ReadableByteChannel, WritableByteChannel {}

  private Connection connect() throws IOException {
    if (tls == null) {
      SocketChannel channel = SocketChannel.open(new InetSocketAddress(relay.getHost(), relay.getPort()));
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      return delegate(channel, channel, channel);
    }
    SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(relay.getHost(), relay.getPort());
    socket.setTcpNoDelay(true);
    socket.setEnabledCipherSuites(aes128First(socket.getEnabledCipherSuites()));
    socket.startHandshake();
    return delegate(recordReads(socket.getInputStream()), Channels.newChannel(socket.getOutputStream()), socket);
  }

  /**
   * The JDK's client offers TLS_AES_256_GCM_SHA384 first and an OpenSSL server takes the client's order; the consumer's
   * client (BoringSSL) offers TLS_AES_128_GCM_SHA256 first. The reader offers what the consumer does, so the relay
   * encrypts here as it does for consumers.
   */
  static String[] aes128First(String[] suites) {
    java.util.List<String> ordered = new java.util.ArrayList<>(java.util.List.of(suites));
    if (ordered.remove("TLS_AES_128_GCM_SHA256")) {
      ordered.add(0, "TLS_AES_128_GCM_SHA256");
    }
    return ordered.toArray(String[]::new);
  }

  /**
   * The TLS socket's input as a channel that takes up to a whole TLS record's plaintext (16 KiB) per read, or what is
   * decrypted already: {@link Channels#newChannel(InputStream)} moves at most 8 KiB per call, two calls per record.
   */
  private static ReadableByteChannel recordReads(java.io.InputStream in) {
    byte[] chunk = new byte[64 << 10];
    return new ReadableByteChannel() {
      private volatile boolean open = true;

      @Override
      public int read(ByteBuffer dst) throws IOException {
        int n = in.read(chunk, 0, Math.min(chunk.length, dst.remaining()));
        if (n > 0) {
          dst.put(chunk, 0, n);
        }
        return n;
      }

      @Override
      public boolean isOpen() {
        return open;
      }

      @Override
      public void close() throws IOException {
        open = false;
        in.close();
      }
    };
  }

  private static Connection delegate(ReadableByteChannel in, WritableByteChannel out, Closeable closer) {
    return new Connection() {
      @Override
      public int read(ByteBuffer dst) throws IOException {
        return in.read(dst);
      }

      @Override
      public int write(ByteBuffer src) throws IOException {
        return out.write(src);
      }

      @Override
      public boolean isOpen() {
        return in.isOpen();
      }

      @Override
      public void close() throws IOException {
        closer.close();
      }
    };
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
        int at = text.toLowerCase(Locale.ROOT).indexOf("content-length:");
        if (at < 0) {
          throw new IOException("a long-poll response without Content-Length: " + text.substring(0, end));
        }
        int length = Integer.parseInt(text.substring(at + 15, text.indexOf("\r\n", at)).trim());
        body.put(head.array(), end + 4, head.position() - end - 4);
        return length;
      }
      if (!head.hasRemaining()) {
        throw new IOException("a response head over " + head.capacity() + " bytes");
      }
    }
  }
}
