package io.gridway.perf;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * A blocking TLS client connection for the harness's readers: a {@link SocketChannel} and an {@link SSLEngine} from a
 * Netty {@link SslContext} (the consumer's, so BoringSSL where it loads, as the consumer's pullers decrypt). Ciphertext
 * is read from the socket in large reads and unwrapped straight into the caller's buffer when it has room for a
 * record (BoringSSL unwraps every whole record it is given in one call), so a body costs one decryption and no extra
 * copy; smaller reads (a response head) go through a record-sized staging buffer.
 *
 * <p>Why not an {@code SSLSocket}: it is the JDK's TLS, whose AES-GCM decryption cost the reader several times what
 * the relay's encryption costs, so {@code relay-read --tls} measured the harness's client rather than the relay.
 *
 * <p>Not thread-safe: one connection per reader thread.
 */
final class TlsEngineChannel implements ByteChannel {
  private static final int NET_BUFFER = 256 << 10; // ~16 records per socket read

  private final SocketChannel socket;
  private final SSLEngine engine;
  private final ByteBuffer netIn; // ciphertext read, not yet unwrapped (read mode: compacted only to read more)
  private final ByteBuffer netOut; // ciphertext to send (write mode)
  private final ByteBuffer staged; // plaintext unwrapped but not yet handed out (read mode)
  private final ByteBuffer empty = ByteBuffer.allocate(0);
  private boolean closed;

  private TlsEngineChannel(SocketChannel socket, SSLEngine engine) {
    this.socket = socket;
    this.engine = engine;
    SSLSession session = engine.getSession();
    this.netIn = ByteBuffer.allocateDirect(Math.max(NET_BUFFER, session.getPacketBufferSize())).flip();
    this.netOut = ByteBuffer.allocateDirect(Math.max(64 << 10, session.getPacketBufferSize()));
    this.staged = ByteBuffer.allocateDirect(2 * session.getApplicationBufferSize()).flip();
  }

  /** Connects to {@code relay} and completes the handshake (the relay's certificate checked against its host). */
  static TlsEngineChannel connect(URI relay, SslContext context) throws IOException {
    SocketChannel socket = SocketChannel.open(new InetSocketAddress(relay.getHost(), relay.getPort()));
    SSLEngine engine = context.newEngine(ByteBufAllocator.DEFAULT, relay.getHost(), relay.getPort());
    TlsEngineChannel channel = new TlsEngineChannel(socket, engine);
    try {
      socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.handshake();
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The negotiated protocol and cipher suite, e.g. {@code TLSv1.3 TLS_AES_128_GCM_SHA256}. */
  SSLSession session() {
    return engine.getSession();
  }

  private void handshake() throws IOException {
    engine.beginHandshake();
    while (true) {
      switch (engine.getHandshakeStatus()) {
        case NEED_WRAP -> wrap(empty);
        case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
          int produced = unwrapInto(stagingTarget());
          staged.flip(); // read mode again, holding whatever came with the last handshake record
          if (produced < 0) {
            throw new SSLException("the relay closed the connection during the TLS handshake");
          }
        }
        case NEED_TASK -> runTasks();
        case FINISHED, NOT_HANDSHAKING -> {
          return;
        }
      }
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    while (true) {
      if (staged.hasRemaining()) {
        int n = Math.min(staged.remaining(), dst.remaining());
        ByteBuffer slice = staged.slice().limit(n);
        dst.put(slice);
        staged.position(staged.position() + n);
        return n;
      }
      // Straight into the caller's buffer when a whole record fits: the body's path, no copy.
      boolean direct = dst.remaining() >= engine.getSession().getApplicationBufferSize();
      int produced = unwrapInto(direct ? dst : stagingTarget());
      if (!direct) {
        staged.flip();
      }
      if (produced < 0) {
        return -1;
      }
      if (direct && produced > 0) {
        return produced;
      }
    }
  }

  private ByteBuffer stagingTarget() {
    staged.clear();
    return staged;
  }

  /**
   * One unwrap into {@code target}, reading from the socket first when no whole record is buffered; returns the bytes
   * produced (0 for a record that carried none, e.g. a session ticket) or -1 at the end of the stream.
   */
  private int unwrapInto(ByteBuffer target) throws IOException {
    while (true) {
      SSLEngineResult result = engine.unwrap(netIn, target);
      switch (result.getStatus()) {
        case OK -> {
          afterEngine(result);
          return result.bytesProduced();
        }
        case BUFFER_UNDERFLOW -> {
          // Only now move the partial record to the front: compacting after every unwrap (one record each) would copy
          // the rest of the buffer once per record, which profiled as the reader's largest cost.
          netIn.compact();
          try {
            if (!netIn.hasRemaining()) {
              throw new SSLException("a TLS record larger than " + netIn.capacity() + " bytes");
            }
            if (socket.read(netIn) < 0) {
              return -1;
            }
          } finally {
            netIn.flip();
          }
        }
        case BUFFER_OVERFLOW -> throw new SSLException("no room for a TLS record's plaintext (" + target.remaining()
            + " bytes free, the session needs " + engine.getSession().getApplicationBufferSize() + ")");
        case CLOSED -> {
          return -1;
        }
      }
    }
  }

  /** After a record: a key update or post-handshake message may ask to send something or to run a task. */
  private void afterEngine(SSLEngineResult result) throws IOException {
    SSLEngineResult.HandshakeStatus status = result.getHandshakeStatus();
    if (status == SSLEngineResult.HandshakeStatus.NEED_TASK) {
      runTasks();
      status = engine.getHandshakeStatus();
    }
    if (status == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
      wrap(empty);
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run();
    }
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    int before = src.remaining();
    do {
      wrap(src);
    } while (src.hasRemaining());
    return before;
  }

  /** Wraps what {@code src} holds (or a handshake message) and sends it all. */
  private void wrap(ByteBuffer src) throws IOException {
    netOut.clear();
    SSLEngineResult result = engine.wrap(src, netOut);
    if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
      throw new SSLException("a TLS record larger than " + netOut.capacity() + " bytes");
    }
    if (result.getStatus() == SSLEngineResult.Status.CLOSED && src.hasRemaining()) {
      throw new SSLException("the TLS connection is closed");
    }
    netOut.flip();
    while (netOut.hasRemaining()) {
      socket.write(netOut);
    }
    if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
      runTasks();
    }
  }

  @Override
  public boolean isOpen() {
    return !closed;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      engine.closeOutbound();
      if (socket.isConnected()) {
        wrap(empty); // close_notify, best effort
      }
    } catch (IOException e) {
      // the relay may have gone already; the socket is closed below either way
    } finally {
      ReferenceCountUtil.release(engine);
      socket.close();
    }
  }
}
