package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ZkConfig;
import io.gridway.testkit.TestPki;
import io.gridway.testkit.ZooKeeperExtension;
import io.gridway.tls.ServerTlsSettings;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The admin service over HTTPS with the relay's TLS machinery, on a certificate made by the test. */
class AdminTlsIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private static Path dir;
  private static TestPki pki;
  private static AdminService admin;

  @BeforeAll
  static void startOverTls() throws Exception {
    dir = Files.createTempDirectory("gridway-admin-tls");
    pki = TestPki.create(dir.resolve("pki"));
    TestPki.Issued cert = pki.server("admin", "127.0.0.1", "localhost");
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    String cluster = "admtls" + ProcessHandle.current().pid();
    try (ClusterAdmin a = new ClusterAdmin(zk, cluster)) {
      a.init();
    }
    admin = AdminService.start(new AdminSettings(zk, cluster, "admin-tls", "127.0.0.1", 0, dir.resolve("state"), null,
        null), Clock.systemUTC(), ServerTlsSettings.pem(cert.certFile().toString(), cert.keyFile().toString(), null), Map.of());
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
  }

  @Test
  void theApiAnswersOverHttpsWithTheGeneratedCertificate() throws Exception {
    assertThat(admin.url()).startsWith("https://127.0.0.1:");
    HttpClient client = HttpClient.newBuilder().sslContext(trusting(pki.caFile())).connectTimeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> openApi = client.send(HttpRequest.newBuilder(URI.create(admin.url() + "api/v1/openapi.json")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(openApi.statusCode()).isEqualTo(200);
    HttpResponse<String> cluster = client.send(HttpRequest.newBuilder(URI.create(admin.url() + "api/v1/cluster")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(cluster.statusCode()).isEqualTo(401); // TLS is the transport; the session still decides
  }

  @Test
  void theSessionCookieIsSecureOverHttps() throws Exception {
    HttpClient client = HttpClient.newBuilder().sslContext(trusting(pki.caFile())).connectTimeout(Duration.ofSeconds(10)).build();
    String password = Files.readString(dir.resolve("state").resolve(Users.INITIAL_PASSWORD_FILE)).strip();
    HttpResponse<String> login = client.send(HttpRequest.newBuilder(URI.create(admin.url() + "api/v1/session"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"user\": \"admin\", \"password\": \"" + password + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    assertThat(login.headers().firstValue("Set-Cookie")).hasValueSatisfying(cookie ->
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").endsWith("; Secure"));
  }

  @Test
  void aClientThatDoesNotTrustTheCaFailsTheHandshake() throws Exception {
    TestPki other = TestPki.create(dir.resolve("other"), "other-ca");
    HttpClient client = HttpClient.newBuilder().sslContext(trusting(other.caFile())).build();
    assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(URI.create(admin.url() + "api/v1/openapi.json")).build(),
        HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void plainHttpOnTheTlsPortIsToldTheHttpsUrl() throws Exception {
    String plainUrl = admin.url().replace("https://", "http://");
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(plainUrl + "api/v1/openapi.json")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("tls-required").contains(admin.url());
  }

  private static SSLContext trusting(Path caFile) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caFile)) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }
}
