package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.FaultProxy.Direction;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link FaultProxy} between real sockets: a client and an echo server on loopback. */
@Timeout(60)
class FaultProxyIT {
  private Echo echo;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws Exception {
    echo = new Echo();
    proxy = FaultProxy.start("127.0.0.1", echo.port());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  void passThroughForwardsBothWays() throws Exception {
    try (Socket client = connect()) {
      byte[] sent = bytes(100_000);
      client.getOutputStream().write(sent);
      assertThat(readFully(client, sent.length)).isEqualTo(sent);
    }
    assertThat(proxy.accepted()).isEqualTo(1);
  }

  @Test
  void latencyDelaysEachDirection() throws Exception {
    proxy.latency(Direction.UPSTREAM, Duration.ofMillis(150)).latency(Direction.DOWNSTREAM, Duration.ofMillis(150));
    try (Socket client = connect()) {
      long started = System.nanoTime();
      client.getOutputStream().write(bytes(10));
      readFully(client, 10);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
      proxy.passThrough();
      started = System.nanoTime();
      client.getOutputStream().write(bytes(10));
      readFully(client, 10);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).as("latency removed").isLessThan(Duration.ofMillis(300));
    }
  }

  @Test
  void bandwidthLimitSlowsADirection() throws Exception {
    proxy.bandwidth(Direction.DOWNSTREAM, 512 * 1024);
    try (Socket client = connect()) {
      byte[] sent = bytes(512 * 1024);
      long started = System.nanoTime();
      Thread writer = new Thread(() -> {
        try {
          client.getOutputStream().write(sent);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      });
      writer.start();
      assertThat(readFully(client, sent.length)).isEqualTo(sent);
      writer.join();
      // Everything but the last chunk read (at most 64 KiB here) waits its turn at 512 KiB/s.
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(800));
    }
  }

  @Test
  void resetAllResetsOpenConnectionsAndAcceptsNewOnes() throws Exception {
    try (Socket client = connect()) {
      roundTrip(client);
      await().until(() -> echo.connections.get() == 1);
      assertThat(proxy.resetAll()).isEqualTo(1);
      assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketException.class)
          .hasMessageContaining("reset");
    }
    try (Socket again = connect()) {
      roundTrip(again);
    }
  }

  @Test
  void resetEveryResetsPeriodicallyUntilPassThrough() throws Exception {
    proxy.resetEvery(Duration.ofMillis(200));
    try (Socket first = connect()) {
      assertThatThrownBy(() -> first.getInputStream().read()).isInstanceOf(SocketException.class);
    }
    try (Socket second = connect()) {
      assertThatThrownBy(() -> second.getInputStream().read()).isInstanceOf(SocketException.class);
    }
    proxy.passThrough();
    long resets = proxy.resets();
    try (Socket client = connect()) {
      roundTrip(client);
      assertThat(proxy.resets()).as("no reset after pass-through").isEqualTo(resets);
    }
  }

  @Test
  void blackholeAcceptsButForwardsAndAnswersNothingUntilHealed() throws Exception {
    try (Socket before = connect()) {
      roundTrip(before);
      proxy.blackhole();
      try (Socket during = connect()) { // accepted: the handshake is the proxy's
        during.getOutputStream().write(bytes(10));
        before.getOutputStream().write(bytes(10));
        during.setSoTimeout(300);
        before.setSoTimeout(300);
        // No byte, no EOF and no RST: only a timeout, the way a dropped network looks to a peer.
        assertThatThrownBy(() -> during.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        assertThatThrownBy(() -> before.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        assertThat(echo.received.get()).as("nothing reached the server").isEqualTo(10);
        proxy.passThrough();
        during.setSoTimeout(10_000);
        before.setSoTimeout(10_000);
        assertThat(readFully(during, 10)).isEqualTo(bytes(10));
        assertThat(readFully(before, 10)).isEqualTo(bytes(10));
      }
    }
  }

  @Test
  void halfOpenStopsOneDirectionOnly() throws Exception {
    try (Socket client = connect()) {
      roundTrip(client);
      proxy.halfOpen(Direction.DOWNSTREAM);
      client.getOutputStream().write(bytes(1000));
      await().until(() -> echo.received.get() == 1010); // upstream still flows
      client.setSoTimeout(300);
      assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
      proxy.passThrough();
      client.setSoTimeout(10_000);
      assertThat(readFully(client, 1000)).isEqualTo(bytes(1000));
    }
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(proxy.host(), proxy.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static void roundTrip(Socket client) throws IOException {
    client.getOutputStream().write(bytes(10));
    assertThat(readFully(client, 10)).isEqualTo(bytes(10));
  }

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  private static byte[] readFully(Socket socket, int n) throws IOException {
    byte[] b = socket.getInputStream().readNBytes(n);
    if (b.length < n) {
      throw new IOException("EOF after " + b.length + " of " + n + " bytes: " + Arrays.toString(b));
    }
    return b;
  }

  /** Echoes every byte back, on a thread per connection, and counts what it received. */
  private static final class Echo implements AutoCloseable {
    final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final AtomicLong received = new AtomicLong();
    final AtomicLong connections = new AtomicLong();

    Echo() throws IOException {
      daemon(this::accept);
    }

    int port() {
      return server.getLocalPort();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          connections.incrementAndGet();
          daemon(() -> echo(s));
        } catch (IOException e) {
          return; // closed
        }
      }
    }

    private static void daemon(Runnable task) {
      Thread t = new Thread(task, "echo");
      t.setDaemon(true);
      t.start();
    }

    private void echo(Socket s) {
      try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; ) {
          received.addAndGet(n);
          out.write(buffer, 0, n);
        }
      } catch (IOException e) {
        // reset by the proxy: expected in these tests
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
