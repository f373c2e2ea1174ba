package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EmbeddedZooKeeper#dedicatedWithTls}: a ZooKeeper client over TLS with the CA and the key store creates and
 * reads a znode; the port answers no plain-text command; over TLS, {@code srvr} is answered to a client with a
 * certificate from the CA and refused (in the handshake) to one without.
 */
@Timeout(120)
class ZooKeeperTlsIT {
  @Test
  void theTlsPortServesCertificateHoldersOnly(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued peer = pki.peer("zookeeper", "127.0.0.1", "localhost");
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.dedicatedWithTls(pki.serverFiles(peer))) {
      assertThat(zk.isTls()).isTrue();
      ZooKeeper client = connect(zk.connectString(), tlsClient(pki.caFile(), zk.keyStoreFile()));
      try {
        client.create("/over-tls", "hello".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
            CreateMode.PERSISTENT);
        assertThat(new String(client.getData("/over-tls", false, null), StandardCharsets.UTF_8)).isEqualTo("hello");
      } finally {
        client.close();
      }

      assertThat(srvr(new Socket(), zk.port())).as("plain 'srvr'").doesNotContain("Zookeeper version");
      assertThat(srvr(context(pki.caFile(), peer).getSocketFactory().createSocket(), zk.port()))
          .as("'srvr' over TLS with a certificate").contains("Zookeeper version");
      assertThat(srvr(context(pki.caFile(), null).getSocketFactory().createSocket(), zk.port()))
          .as("'srvr' over TLS without a certificate").doesNotContain("Zookeeper version");
    }
  }

  private static ZKClientConfig tlsClient(Path caFile, Path keyStore) {
    ZKClientConfig config = new ZKClientConfig();
    config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
    config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
    try (ClientX509Util x509 = new ClientX509Util()) {
      config.setProperty(x509.getSslTruststoreLocationProperty(), caFile.toString());
      config.setProperty(x509.getSslTruststoreTypeProperty(), "PEM");
      config.setProperty(x509.getSslKeystoreLocationProperty(), keyStore.toString());
      config.setProperty(x509.getSslKeystoreTypeProperty(), "PEM");
    }
    return config;
  }

  private static ZooKeeper connect(String connectString, ZKClientConfig config) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper client = new ZooKeeper(connectString, 10_000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, config);
    if (!connected.await(30, TimeUnit.SECONDS)) {
      client.close();
      throw new AssertionError("no TLS session with " + connectString + " within 30 s");
    }
    return client;
  }

  /** What the server answers to {@code srvr} on {@code socket}; empty when it closes or resets the connection. */
  private static String srvr(Socket socket, int port) {
    try (socket) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(10_000);
      if (socket instanceof SSLSocket tls) {
        tls.startHandshake();
      }
      socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return ""; // a refused handshake, a reset or a timeout
    }
  }

  /** A TLS client trusting {@code caFile}, presenting {@code certificate} unless it is null. */
  private static SSLContext context(Path caFile, TestPki.Issued certificate) throws Exception {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    try (InputStream in = Files.newInputStream(caFile)) {
      trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    KeyManager[] keys = certificate == null ? null : certificate.bundle().toKeyManagerFactory().getKeyManagers();
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys, trust.getTrustManagers(), null);
    return context;
  }
}
