package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.GridwayLogs;
import io.gridway.testkit.TestPki;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer ↔ relay over TLS, mutual TLS and bearer tokens, with certificates this test makes: what works, and that
 * every refusal names the relay and the cause. In-process relays with the synthetic source: each starts in
 * milliseconds.
 */
@Timeout(120)
class RelayTlsIT {
  private static final String SYNTHETIC = "tables: 2, rowBytes: 100, eventsPerSecond: 20000, seed: 7, maxEvents: 3000";
  @TempDir
  static Path dir;
  private static TestPki pki;
  private static TestPki.Issued server;
  private static TestPki.Issued client;
  private static Path token;

  @BeforeAll
  static void certificates() throws Exception {
    pki = TestPki.create(dir);
    server = pki.server("relay", "127.0.0.1");
    client = pki.client("consumer");
    token = Files.writeString(dir.resolve("token"), "s3cr3t-token-for-tests\n");
  }

  private static String tls(TestPki.Issued cert, String extra) {
    return "tls: {certFile: " + cert.certFile() + ", keyFile: " + cert.keyFile() + extra + "}";
  }

  private static String auth(String sources) {
    return "auth:\n  tokens:\n    - {name: app, tokenFile: " + token + ", sources: [" + sources + "]}";
  }

  private static ConsumerConfig.Builder consumer(URI relay) {
    return ConsumerConfig.builder("src").relay(relay.toString()).partitions(0, 1).waitTime(Duration.ofMillis(200))
        .reconnectBackoff(Duration.ofMillis(50));
  }

  private static GridwayConsumer start(ConsumerConfig config, AtomicLong events) {
    return GridwayConsumer.builder(config).checkpointStore(new RecordingStore())
        .handler(batch -> batch.windows().forEach(w -> events.addAndGet(w.eventCount()))).build().start();
  }

  @Test
  void aConsumerReadsEveryEventOverMutualTlsWithItsTokenAndNoSecretIsShown() throws Exception {
    GridwayLogs logs = GridwayLogs.atDebug(); // what an operator debugging a problem would see, too
    StringBuilder shown = new StringBuilder();
    try (RelayFixture relay = RelayFixture.startSecured(2, SYNTHETIC,
        tls(server, ", clientCaFile: " + pki.caFile()) + "\n" + auth("src"))) {
      assertThat(relay.uri.getScheme()).isEqualTo("https");
      AtomicLong events = new AtomicLong();
      ConsumerConfig config = consumer(relay.uri).mode(ConsumerConfig.Mode.STREAM)
          .tls(new ConsumerConfig.Tls(pki.caFile().toString(), client.certFile().toString(), client.keyFile().toString()))
          .auth(new ConsumerConfig.Auth(token.toString(), null)).build();
      try (GridwayConsumer consumer = start(config, events)) {
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.eventsPublished() >= 3000
            && events.get() == relay.eventsPublished());
        assertThat(consumer.status(0).state()).isEqualTo(PartitionStatus.State.RUNNING);
        shown.append(consumer.statuses()).append(config).append(RelayAccess.of(config));
      }
      HttpClient http = HttpClient.newBuilder().sslContext(RelayAccess.of(config).jdkContext()).build();
      for (String path : List.of("/v1/sources", "/metrics", "/health")) {
        HttpResponse<String> response = get(http, relay.uri.resolve(path), "s3cr3t-token-for-tests");
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        shown.append(response.body());
      }
    } finally {
      logs.close();
    }
    shown.append(logs.text());
    assertThat(logs.lineCount()).isPositive();
    assertThat(shown).doesNotContain("s3cr3t-token-for-tests")
        .doesNotContain(TokenDigest.of("s3cr3t-token-for-tests"))
        .doesNotContain(server.keyLine()).doesNotContain(client.keyLine());
  }

  @Test
  void aMissingWrongOrNarrowTokenIsRefusedWithAProblemNamingTheCause() throws Exception {
    try (RelayFixture relay = RelayFixture.startSecured(2, SYNTHETIC, tls(server, "") + "\n" + auth("src"))) {
      HttpClient http = HttpClient.newBuilder().sslContext(trusting(pki)).build();
      assertThat(get(http, relay.uri.resolve("/health"), null).statusCode()).isEqualTo(200);
      HttpResponse<String> noToken = get(http, relay.uri.resolve("/metrics"), null);
      assertThat(noToken.statusCode()).isEqualTo(401);
      assertThat(noToken.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"gridway-relay\"");
      assertThat(noToken.body()).contains("\"type\" : \"unauthorized\"").contains("no Authorization header");
      assertThat(get(http, relay.uri.resolve("/v1/sources"), "wrong").body()).contains("not one this relay accepts");
      assertThat(get(http, relay.uri.resolve("/metrics"), "s3cr3t-token-for-tests").statusCode()).isEqualTo(200);

      AtomicLong events = new AtomicLong();
      ConsumerConfig tlsOnly = consumer(relay.uri).tls(new ConsumerConfig.Tls(pki.caFile().toString(), null, null)).build();
      try (GridwayConsumer consumer = start(tlsOnly, events)) {
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
        assertThat(consumer.status(0).detail()).startsWith("auth: relay " + relay.uri + " rejected the request (401 "
            + "unauthorized: no Authorization header");
      }
    }
    try (RelayFixture relay = RelayFixture.startSecured(2, SYNTHETIC, tls(server, "") + "\n" + auth("other"))) {
      throw new AssertionError("a token for a source the relay does not serve must not start: " + relay.uri);
    } catch (IllegalArgumentException e) {
      assertThat(e).hasMessageContaining("http.auth.tokens[app].sources: this relay serves no source 'other'");
    }
  }

  @Test
  void untrustedExpiredMisnamedAndPlainPeersAreRefusedNamingTheHost() throws Exception {
    TestPki.Issued expired = pki.expiredServer("expired", "127.0.0.1");
    TestPki other = TestPki.create(dir.resolve("other"), "another-ca");
    ConsumerConfig.Tls trust = new ConsumerConfig.Tls(pki.caFile().toString(), null, null);
    try (RelayFixture good = RelayFixture.startSecured(2, SYNTHETIC, tls(server, ""));
        RelayFixture old = RelayFixture.startSecured(2, SYNTHETIC, tls(expired, ""));
        RelayFixture mutual = RelayFixture.startSecured(2, SYNTHETIC, tls(server, ", clientCaFile: " + pki.caFile()));
        RelayFixture plain = RelayFixture.startSecured(2, SYNTHETIC, "")) {
      URI byName = URI.create("https://localhost:" + good.uri.getPort());
      URI plainAsHttps = URI.create("https://127.0.0.1:" + plain.uri.getPort());
      URI tlsAsHttp = URI.create("http://127.0.0.1:" + good.uri.getPort());
      expectTlsFailure(consumer(good.uri).tls(new ConsumerConfig.Tls(other.caFile().toString(), null, null)).build(),
          good.uri, "its certificate is not signed by a trusted CA");
      expectTlsFailure(consumer(old.uri).tls(trust).build(), old.uri, "its certificate has expired");
      expectTlsFailure(consumer(byName).tls(trust).build(), byName, "its certificate does not name the host of the URL");
      expectTlsFailure(consumer(plainAsHttps).tls(trust).build(), plainAsHttps, "the peer does not speak TLS");
      expectTlsFailure(consumer(mutual.uri).tls(trust).build(), mutual.uri, "the peer refused this client's certificate, or it requires one");

      AtomicLong events = new AtomicLong();
      try (GridwayConsumer consumer = start(consumer(tlsAsHttp).build(), events)) {
        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.status(0).state() == PartitionStatus.State.FAILED);
        assertThat(consumer.status(0).detail()).startsWith("relays: relay " + tlsAsHttp + " rejected the request (400 "
            + "tls-required: plain HTTP on the relay's TLS port; use https://127.0.0.1:" + good.uri.getPort());
      }
    }
    assertThatThrownBy(() -> consumer(URI.create("http://127.0.0.1:1")).tls(trust).build())
        .hasMessageContaining("is plain http, and tls is set");
  }

  @Test
  void aDiscoveredPlainRelayIsNeverSentARequestByATlsConsumer() throws Exception {
    try (RelayFixture plain = RelayFixture.startSecured(1, SYNTHETIC, auth("src"))) {
      ConsumerConfig config = ConsumerConfig.builder("src").discovery(new ConsumerConfig.Discovery("127.0.0.1:1", "grid",
          null)).partitions(0).reconnectBackoff(Duration.ofMillis(50))
          .tls(new ConsumerConfig.Tls(pki.caFile().toString(), null, null))
          .auth(new ConsumerConfig.Auth(token.toString(), null)).build();
      RelayEndpoints discovered = RelayEndpoints.fixed(List.of(plain.uri)); // as a Helix spectator would list it
      try (GridwayConsumer consumer = GridwayConsumer.builder(config).relayEndpoints(discovered)
          .checkpointStore(new RecordingStore()).handler(batch -> { }).build().start()) {
        await().atMost(Duration.ofSeconds(10)).until(() -> String.valueOf(consumer.status(0).detail())
            .equals("relay " + plain.uri + " is plain http and this consumer is configured for TLS (tls): refusing it"));
      }
      // not one request reached it (the token would have travelled in clear text): no event request was answered
      HttpClient http = HttpClient.newHttpClient();
      String metrics = get(http, plain.uri.resolve("/metrics"), "s3cr3t-token-for-tests").body();
      assertThat(metrics).contains("# TYPE gridway_relay_http_connections").doesNotContain("endpoint=\"events\"")
          .doesNotContain("endpoint=\"auth\"");
    }
  }

  private static void expectTlsFailure(ConsumerConfig config, URI relay, String cause) {
    AtomicLong events = new AtomicLong();
    try (GridwayConsumer consumer = start(config, events)) {
      String prefix = "TLS handshake with relay " + relay + " failed: " + cause;
      await().atMost(Duration.ofSeconds(20)).until(() -> String.valueOf(consumer.status(0).detail()).startsWith(prefix));
      assertThat(events.get()).isZero();
    }
  }

  @Test
  void aCertificateRotatedOnDiskServesTheNextConnectionsAndPkcs12Works() throws Exception {
    TestPki.Issued rotating = pki.server("rotating", "127.0.0.1");
    try (RelayFixture relay = RelayFixture.startSecured(1, SYNTHETIC, tls(rotating, ", reloadCheck: 0s"))) {
      BigInteger before = servedSerial(relay.uri);
      assertThat(before).isEqualTo(rotating.bundle().getCertificate().getSerialNumber());
      // caught between renaming the key and the certificate: a key of another certificate does not load
      TestPki.Issued stranger = pki.server("stranger", "127.0.0.1");
      byte[] ownKey = Files.readAllBytes(rotating.keyFile());
      Files.copy(stranger.keyFile(), rotating.keyFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThat(servedSerial(relay.uri)).isEqualTo(before);
      Files.write(rotating.keyFile(), ownKey);
      TestPki.Issued next = pki.rotate(rotating, "127.0.0.1");
      BigInteger after = servedSerial(relay.uri);
      assertThat(after).isNotEqualTo(before).isEqualTo(next.bundle().getCertificate().getSerialNumber());
    }
    Path store = server.pkcs12(dir.resolve("relay.p12"), "p12-pass".toCharArray());
    Path password = Files.writeString(dir.resolve("p12.pw"), "p12-pass\n");
    try (RelayFixture relay = RelayFixture.startSecured(1, SYNTHETIC,
        "tls: {keyStoreFile: " + store + ", keyStorePasswordFile: " + password + "}")) {
      assertThat(servedSerial(relay.uri)).isEqualTo(server.bundle().getCertificate().getSerialNumber());
    }
  }

  /** The serial of the certificate a new connection is served (a new client each time: no connection reuse). */
  private static BigInteger servedSerial(URI relay) throws Exception {
    HttpClient http = HttpClient.newBuilder().sslContext(trusting(pki)).build();
    HttpResponse<String> response = get(http, relay.resolve("/health"), null);
    return ((X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0]).getSerialNumber();
  }

  private static SSLContext trusting(TestPki ca) throws Exception {
    RelayAccess access = RelayAccess.of(ConsumerConfig.builder("src").relay("https://127.0.0.1:1").partitions(0)
        .tls(new ConsumerConfig.Tls(ca.caFile().toString(), null, null)).build(), java.util.Map.of());
    SSLParameters parameters = access.sslParameters();
    assertThat(List.of(parameters.getProtocols())).containsExactly("TLSv1.3", "TLSv1.2");
    return access.jdkContext();
  }

  /** The relay keeps SHA-256 digests of tokens: not even those are shown. */
  private static final class TokenDigest {
    static String of(String token) throws Exception {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
  }

  private static HttpResponse<String> get(HttpClient http, URI uri, String bearer) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
