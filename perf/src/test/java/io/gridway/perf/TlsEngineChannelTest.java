package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.RelayAccess;
import io.gridway.testkit.TestPki;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers' TLS connection against a JDK TLS server on loopback: a head read into a small buffer (staged), the rest of
 * a multi-record response straight into a large one, byte for byte; the end of the stream; a relay whose certificate is
 * not from the trusted CA refused at the handshake.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsEngineChannelTest {
  private static final int BODY = 3 << 20; // ~190 records

  @Test
  void readsAHeadThenTheBodyStraightIntoALargeBufferByteForByte(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki"), "test-ca");
    try (SSLServerSocket server = server(pki, dir)) {
      CompletableFuture<Void> served = CompletableFuture.runAsync(() -> serveOnce(server));
      URI relay = URI.create("https://127.0.0.1:" + server.getLocalPort());
      try (TlsEngineChannel channel = TlsEngineChannel.connect(relay, readers(pki.caFile()))) {
        assertThat(channel.session().getProtocol()).isEqualTo("TLSv1.3");
        channel.write(StandardCharsets.US_ASCII.encode("GET\n"));

        ByteBuffer head = ByteBuffer.allocate(100);
        while (head.hasRemaining()) {
          assertThat(channel.read(head)).isNotNegative();
        }
        ByteBuffer body = ByteBuffer.allocateDirect(BODY + (1 << 20));
        body.put(head.flip());
        int n;
        while ((n = channel.read(body)) >= 0) {
          assertThat(n).isNotNegative();
        }

        body.flip();
        assertThat(body.remaining()).isEqualTo(BODY);
        for (int i = 0; i < BODY; i++) {
          if (body.get(i) != pattern(i)) {
            throw new AssertionError("byte " + i + " is " + body.get(i) + ", expected " + pattern(i));
          }
        }
      }
      served.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aRelayCertificateFromAnotherCaIsRefusedAtTheHandshake(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki"), "test-ca");
    TestPki other = TestPki.create(dir.resolve("other"), "other-ca");
    try (SSLServerSocket server = server(pki, dir)) {
      CompletableFuture.runAsync(() -> serveOnce(server));
      URI relay = URI.create("https://127.0.0.1:" + server.getLocalPort());
      assertThatThrownBy(() -> TlsEngineChannel.connect(relay, readers(other.caFile()))).isInstanceOf(SSLException.class);
    }
  }

  private static io.netty.handler.ssl.SslContext readers(Path caFile) {
    return RelayAccess.pullerContext(new ConsumerConfig.Tls(caFile.toString(), null, null), "test");
  }

  private static byte pattern(int i) {
    return (byte) (i * 31 + (i >>> 11));
  }

  /** Reads one line, answers BODY patterned bytes in one write and closes (the JDK cuts it into records). */
  private static void serveOnce(SSLServerSocket server) {
    try (SSLSocket socket = (SSLSocket) server.accept()) {
      InputStream in = socket.getInputStream();
      int b;
      while ((b = in.read()) >= 0 && b != '\n') {
        // the request line
      }
      byte[] body = new byte[BODY];
      for (int i = 0; i < BODY; i++) {
        body[i] = pattern(i);
      }
      OutputStream out = socket.getOutputStream();
      out.write(body);
      out.flush();
    } catch (Exception e) {
      // a refused handshake ends here; the client's side is what the tests check
    }
  }

  private static SSLServerSocket server(TestPki pki, Path dir) throws Exception {
    char[] password = "test".toCharArray();
    Path store = pki.server("relay", "127.0.0.1").pkcs12(dir.resolve("relay.p12"), password);
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, password);
    }
    KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(keys, password);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(factory.getKeyManagers(), null, null);
    return (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }
}
