package io.gridway.deploy.demo;

import io.gridway.cluster.ZkTls;
import io.gridway.testkit.ServerTlsFiles;
import io.gridway.testkit.TestPki;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates and the token of {@code gridway demo --tls}, all made when the demo starts (nothing is checked in
 * and nothing outlives the run unless {@code --keep}): a private CA in {@code tls/}, a server certificate for each
 * server (MariaDB, PostgreSQL, relay, admin service), one for ZooKeeper that also serves as this process's client
 * certificate (the embedded server and its clients share one process, and the embedded server requires a client
 * certificate), a client certificate for the consumers (the relay requires one: mutual TLS) and a random bearer
 * token the relay accepts for the demo's source. Keys are PEM PKCS#8 files of mode 0600, valid two days (test kit's
 * {@link TestPki}, ECDSA P-256).
 *
 * <p>Not thread-safe while {@link #create}s; read-only after.
 */
final class DemoPki {
  static final String CA_NAME = "gridway-demo-ca";
  private static final String LOOPBACK = "127.0.0.1";

  private final Path dir;
  private final TestPki pki;
  private final TestPki.Issued relay;
  private final TestPki.Issued admin;
  private final TestPki.Issued client;
  private final TestPki.Issued zooKeeper;
  private final Path zkKeyStore;
  private final TestPki.Issued mariaDb;
  private final TestPki.Issued postgres;
  private final Path tokenFile;

  private DemoPki(Path dir, TestPki pki, Path tokenFile) {
    this.dir = dir;
    this.pki = pki;
    this.relay = pki.server("relay", LOOPBACK, "localhost");
    this.admin = pki.server("admin", LOOPBACK, "localhost");
    this.client = pki.client("demo-consumer");
    // ZooKeeper's client checks an IP address of the connect string as the name it resolves back to (localhost)
    this.zooKeeper = pki.peer("zookeeper", LOOPBACK, "localhost");
    this.zkKeyStore = zooKeeper.pemKeyStore(dir.resolve("zookeeper.pem"));
    this.mariaDb = pki.server("mariadb", LOOPBACK, "localhost");
    this.postgres = pki.server("postgresql", LOOPBACK, "localhost");
    this.tokenFile = tokenFile;
  }

  /** A new CA, certificates and token in {@code dir} (created). */
  static DemoPki create(Path dir) throws IOException {
    TestPki pki = TestPki.create(dir, CA_NAME);
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    Path token = DemoConfigs.secret(dir.resolve("relay-token"), Base64.getUrlEncoder().withoutPadding().encodeToString(random));
    return new DemoPki(dir, pki, token);
  }

  Path dir() {
    return dir;
  }

  /** The CA certificate every server's certificate chains to: what a client trusts. */
  Path caFile() {
    return pki.caFile();
  }

  TestPki.Issued relay() {
    return relay;
  }

  TestPki.Issued admin() {
    return admin;
  }

  /** The consumers' client certificate (the relay's mutual TLS); also good for curl. */
  TestPki.Issued client() {
    return client;
  }

  /** The file with the bearer token for the relay. */
  Path tokenFile() {
    return tokenFile;
  }

  ServerTlsFiles mariaDbFiles() {
    return pki.serverFiles(mariaDb);
  }

  ServerTlsFiles postgresFiles() {
    return pki.serverFiles(postgres);
  }

  /** ZooKeeper's TLS: the same CA and one key store for the embedded server and every client of this process. */
  ZkTls zkTls() {
    return new ZkTls(caFile(), zkKeyStore);
  }

  /** A client context that trusts the CA and presents the consumers' certificate (the demo's own health checks). */
  SSLContext clientContext() {
    try {
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      trusted.setCertificateEntry("ca", client.bundle().getRootCertificate());
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(client.bundle().toKeyManagerFactory().getKeyManagers(), trust.getTrustManagers(), new SecureRandom());
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new DemoException("cannot build a TLS client context from the demo's CA in " + dir + ": " + e.getMessage(), e);
    }
  }
}
