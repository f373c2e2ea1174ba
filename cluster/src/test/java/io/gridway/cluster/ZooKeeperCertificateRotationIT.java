package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ClientInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificate rotation on ZooKeeper's TLS port (docs/security.md, "Certificate rotation"), as an operator does it:
 * files renamed over the old ones. The embedded server, requiring client certificates, and a ZooKeeper client of the
 * same process (built as Helix builds its own: from the process-wide properties) share one key store file and one CA
 * file. A move from CA A to CA B: the CA file gets both CAs, then the key store a certificate from B, then the CA file
 * B alone. The server takes each file for the connections after the rename (no restart); the client's open session
 * keeps its certificate until it reconnects, and shows the new one then. The certificate the server serves is read by a
 * TLS handshake; the one the client showed, by ZooKeeper's {@code whoAmI} (the server's x509 identity of the session).
 */
@Timeout(120)
class ZooKeeperCertificateRotationIT {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path dir;
  private EmbeddedZooKeeperServer server;
  private ZooKeeper client;
  private Path bothCas; // what the test's own TLS clients trust: they check the server's certificate, not the rotation

  @AfterEach
  void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    ZkProcessSecurity.reset();
  }

  @Test
  void renamedKeyStoreAndCaFilesServeTheNextConnectionsAndTheClientShowsItsNewCertificateWhenItReconnects()
      throws Exception {
    TestPki oldCa = TestPki.create(dir.resolve("a"), "zk-ca-a");
    TestPki newCa = TestPki.create(dir.resolve("b"), "zk-ca-b");
    TestPki.Issued oldHost = oldCa.peer("zk-host-a", "127.0.0.1", "localhost");
    TestPki.Issued newHost = newCa.peer("zk-host-b", "127.0.0.1", "localhost");
    TestPki.Issued oldOther = oldCa.client("other-a");
    TestPki.Issued newOther = newCa.client("other-b");
    bothCas = Files.writeString(dir.resolve("both-cas.pem"), Files.readString(oldCa.caFile()) + Files.readString(newCa.caFile()));
    Path tlsDir = Files.createDirectories(dir.resolve("tls"));
    Path caFile = tlsDir.resolve("zk-ca.pem");
    Path keyStore = tlsDir.resolve("host.pem");
    Files.copy(oldCa.caFile(), caFile);
    oldHost.pemKeyStore(keyStore);
    ZkTls tls = new ZkTls(caFile, keyStore);
    server = EmbeddedZooKeeperServer.start(ZkConfig.embedded(dir.resolve("zk"), 0).withTls(tls));
    int port = port(server);
    client = new ZooKeeper(server.connectString(), 20_000, event -> { });
    await().atMost(PATIENCE).until(() -> client.getState().isConnected());
    long session = client.getSessionId();
    assertThat(identity(client)).isEqualTo("CN=zk-host-a");
    assertThat(servedSubject(port, oldOther)).isEqualTo("CN=zk-host-a");
    assertThat(admits(port, newOther)).as("a certificate from CA B before B is in the CA file").isFalse();

    // 1. both CAs in the CA file: the server admits certificates from B from its next connection on
    replace(caFile, Files.readString(bothCas));
    await().atMost(PATIENCE).until(() -> admits(port, newOther));
    assertThat(admits(port, oldOther)).isTrue();

    // 2. the key store (the server's certificate and this process's client certificate) from B
    replace(keyStore, newHost.bundle().getPrivateKeyPEM() + newHost.bundle().getCertificatePEM());
    await().atMost(PATIENCE).until(() -> servedSubject(port, oldOther).equals("CN=zk-host-b"));
    assertThat(identity(client)).as("the open session keeps the certificate it connected with").isEqualTo("CN=zk-host-a");
    // a reconnection (the server restarted on the same port; the session survives it) shows the new certificate
    server.close();
    await().atMost(PATIENCE).until(() -> refusesConnections(port)); // Netty closes the listening socket asynchronously
    server = EmbeddedZooKeeperServer.start(ZkConfig.embedded(dir.resolve("zk"), port).withTls(tls));
    await().atMost(PATIENCE).ignoreExceptions().until(() -> "CN=zk-host-b".equals(identity(client)));
    assertThat(client.getSessionId()).isEqualTo(session);

    // 3. CA A removed: a certificate from A is refused in the handshake, and one from B still admitted
    replace(caFile, Files.readString(newCa.caFile()));
    await().atMost(PATIENCE).until(() -> !admits(port, oldOther));
    assertThat(admits(port, newOther)).isTrue();
    assertThat(identity(client)).isEqualTo("CN=zk-host-b");
    // and a client that trusts only A no longer accepts the server
    assertThatThrownBy(() -> handshake(port, oldOther, oldCa.caFile()).close()).isInstanceOf(SSLException.class)
        .hasMessageContaining("PKIX path");
  }

  /** Writes {@code text} next to {@code file} and renames it over {@code file}, as a rotation script would. */
  private static void replace(Path file, String text) throws IOException {
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.writeString(next, text, StandardCharsets.US_ASCII);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The subject of the certificate the server knows this session by (ZooKeeper's x509 scheme). */
  private static String identity(ZooKeeper zk) throws Exception {
    List<ClientInfo> infos = zk.whoAmI();
    return infos.stream().filter(i -> i.getAuthScheme().equals("x509")).map(ClientInfo::getUser).findFirst()
        .orElseThrow(() -> new AssertionError("no x509 identity in " + infos));
  }

  /** The subject of the certificate the server presents to a new connection. */
  private String servedSubject(int port, TestPki.Issued clientCertificate) throws Exception {
    try (SSLSocket socket = handshake(port, clientCertificate, bothCas)) {
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }
  }

  /**
   * Whether the server lets a client with {@code clientCertificate} talk to it: it answers the {@code srvr} command
   * after the handshake, or it ends the connection (with TLS 1.3 a refused client certificate shows on the first read).
   */
  private boolean admits(int port, TestPki.Issued clientCertificate) throws Exception {
    try (SSLSocket socket = handshake(port, clientCertificate, bothCas)) {
      socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      return answer.startsWith("Zookeeper version");
    } catch (IOException e) { // SSLException, or the connection reset
      return false;
    }
  }

  /** A TLS connection to the server showing {@code clientCertificate} and trusting the CAs in {@code trusted}. */
  private static SSLSocket handshake(int port, TestPki.Issued clientCertificate, Path trusted) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(trusted)) {
      int n = 0;
      for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trust.setCertificateEntry("ca" + n++, ca);
      }
    }
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(clientCertificate.bundle().toKeyManagerFactory().getKeyManagers(), trustManagers.getTrustManagers(), null);
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
    try {
      socket.setSoTimeout(10_000);
      socket.startHandshake();
      return socket;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  private static boolean refusesConnections(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int port(EmbeddedZooKeeperServer zk) {
    String connect = zk.connectString();
    return Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1));
  }
}
