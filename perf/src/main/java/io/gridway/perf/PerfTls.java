package io.gridway.perf;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.RelayAccess;
import io.gridway.testkit.TestPki;
import io.netty.handler.ssl.SslContext;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates of a {@code --tls} run, made at run start into the run's directory (no key outlives the run's
 * results): a throw-away CA and a relay server certificate for 127.0.0.1 (ECDSA P-256, testkit's {@link TestPki}).
 * The relays serve HTTPS with them ({@code http.tls}), the consumers trust the CA ({@code consumer.tls.caFile}) and
 * the harness's readers decrypt as a consumer does ({@link #readers()}, the consumer's puller context: BoringSSL where it
 * loads), its status polls use {@link #client()} (the JDK's, for java.net.http). Immutable after creation.
 */
final class PerfTls {
  private final Path caFile;
  private final Path certFile;
  private final Path keyFile;
  private final SSLContext client;
  private final SslContext readers;

  private PerfTls(Path caFile, Path certFile, Path keyFile, SSLContext client) {
    this.caFile = caFile;
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.client = client;
    this.readers = readerContext(caFile);
  }

  private static SslContext readerContext(Path caFile) {
    return RelayAccess.pullerContext(new ConsumerConfig.Tls(caFile.toString(), null, null), "perf readers");
  }

  /** A new CA and relay certificate under {@code dir}. */
  static PerfTls create(Path dir) throws Exception {
    TestPki pki = TestPki.create(dir, "gridway-perf-ca");
    TestPki.Issued relay = pki.server("perf-relay", "127.0.0.1", "localhost");
    return new PerfTls(pki.caFile(), relay.certFile(), relay.keyFile(), clientContext(pki.caFile()));
  }

  private static SSLContext clientContext(Path caFile) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caFile)) {
      trust.setCertificateEntry("perf-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  Path caFile() {
    return caFile;
  }

  /** The relay's {@code http.tls} setting (YAML flow mapping). */
  String relayYaml() {
    return "{certFile: " + certFile + ", keyFile: " + keyFile + "}";
  }

  /** A client context trusting only the run's CA (the JDK's: status polls). */
  SSLContext client() {
    return client;
  }

  /** The readers' context: the consumer's pullers' TLS, trusting only the run's CA. */
  SslContext readers() {
    return readers;
  }

  /**
   * What a fresh connection to {@code relay} costs a consumer: {@code count} connections with a full handshake each, in
   * the consumer's TLS (each in a context of its own, made before the clock starts, so no session is resumed), their
   * median in ms, and the protocol and suite negotiated.
   */
  static Handshake probe(URI relay, PerfTls tls, int count) throws Exception {
    List<Double> millis = new ArrayList<>();
    String protocol = "";
    String cipher = "";
    for (int i = 0; i < count; i++) {
      SslContext fresh = readerContext(tls.caFile);
      long t0 = System.nanoTime();
      try (TlsEngineChannel channel = TlsEngineChannel.connect(relay, fresh)) {
        millis.add((System.nanoTime() - t0) / 1e6);
        SSLSession session = channel.session();
        protocol = session.getProtocol();
        cipher = session.getCipherSuite();
      }
    }
    Collections.sort(millis);
    return new Handshake(protocol, cipher, millis.get(millis.size() / 2), count);
  }

  /** A handshake probe's result: negotiated protocol and suite, median connect + full handshake in ms. */
  record Handshake(String protocol, String cipher, double medianMs, int count) {
    String describe() {
      return String.format(Locale.ROOT, "%s %s, ECDSA P-256 certificate; connect + full handshake %.1f ms (median of %d)",
          protocol, cipher, medianMs, count);
    }
  }
}
