package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded ZooKeeper with a TLS client port that requires client certificates, and the grid's Helix clients on it:
 * certificates made by the test, the real server, real Helix. The setting is process-wide, so this class resets it.
 */
class ZooKeeperSecurityIT {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String CLUSTER = "gw" + ProcessHandle.current().pid() + "secure";
  private static Path dir;
  private static TestPki pki;
  private static ZkTls tls;
  private static EmbeddedZooKeeperServer server;
  private static ZkConfig zk;

  @BeforeAll
  static void startSecureZooKeeper() throws Exception {
    dir = Files.createTempDirectory("gridway-zk-security");
    pki = TestPki.create(dir.resolve("pki"));
    Path keyStore = pki.peer("zookeeper", "127.0.0.1", "localhost").pemKeyStore(dir.resolve("pki/zookeeper.pem"));
    tls = new ZkTls(pki.caFile(), keyStore);
    server = EmbeddedZooKeeperServer.start(ZkConfig.embedded(dir.resolve("zk"), 0).withTls(tls));
    zk = server.clientConfig();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    ZkProcessSecurity.reset();
  }

  @Test
  void theGridRunsOverMutualTls() {
    try (ClusterAdmin admin = new ClusterAdmin(zk, CLUSTER)) {
      admin.init();
      admin.ensureRelayResource("shop", 1, 1);
    }
    try (ControllerHost controller = ControllerHost.start(zk, CLUSTER, "controller1");
        RelayDirectory directory = RelayDirectory.open(zk, CLUSTER, "spectator1");
        RelayParticipant relay = new RelayParticipant(zk, CLUSTER, "relay1", "https://127.0.0.1:7443", "shop",
            RelayParticipant.Partitions.NONE)) {
      await().atMost(PATIENCE).until(controller::isLeader);
      relay.start();
      await().atMost(PATIENCE).until(() -> directory.endpoints("shop", 0).equals(List.of("https://127.0.0.1:7443")));
    }
    // every client of this process went through the TLS setting (the server has no plain port to take one)
    assertThat(ZkProcessSecurity.current()).isEqualTo(tls);
  }

  @Test
  void aPlainTextClientOnTheSecurePortGetsAnErrorNamingTheServer() {
    assertThatThrownBy(() -> ZkPreflight.check(server.connectString(), null))
        .hasMessageContaining("ZooKeeper " + server.connectString())
        .hasMessageContaining("requires TLS")
        .hasMessageContaining("zkTls");
    // and a plain Gridway client is refused before it connects in a process that uses TLS
    assertThatThrownBy(() -> new ClusterAdmin(ZkConfig.external(server.connectString()), CLUSTER))
        .hasMessageContaining("already connects with TLS");
  }

  @Test
  void aClientWithoutACertificateFromTheCaIsRefusedInTheHandshake() throws Exception {
    // trusts the server (same CA), but has no certificate of its own
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (var in = Files.newInputStream(pki.caFile())) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext noCertificate = SSLContext.getInstance("TLS");
    noCertificate.init(null, trustManagers.getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) noCertificate.getSocketFactory()
        .createSocket("127.0.0.1", port())) {
      socket.setSoTimeout(10_000);
      assertThatThrownBy(() -> {
        socket.startHandshake();
        socket.getOutputStream().write("srvr\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        socket.getInputStream().read();
      }).isInstanceOf(SSLException.class).hasMessageContaining("certificate");
    }
  }

  private static int port() {
    String connect = server.connectString();
    return Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1));
  }
}
