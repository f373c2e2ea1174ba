package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.RecordingStore;
import io.gridway.consumer.RelayFixture;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.testkit.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The service's start-up check of a config against the relays. */
class PreflightIT {
  private static ConsumerConfig config(List<URI> relays, String source, List<Integer> partitions) {
    return new ConsumerConfig(source, null, relays, partitions, null, null, null, null);
  }

  @Test
  void anUnreachableRelayUrlIsNamed() {
    assertThatThrownBy(() -> RelayPreflight.check(config(List.of(URI.create("http://127.0.0.1:1")), "src", List.of(0)),
        Duration.ofSeconds(2)))
        .isInstanceOf(PeerUnavailableException.class) // retried for startTimeout, not a configuration error
        .hasMessageStartingWith("relays: no relay is reachable: http://127.0.0.1:1");
  }

  @Test
  void anUnknownSourceOrPartitionIsNamed() throws Exception {
    try (RelayFixture relay = RelayFixture.start(4, "eventsPerSecond: 10, maxEvents: 10")) {
      assertThatCode(() -> RelayPreflight.check(config(List.of(URI.create("http://127.0.0.1:1"), relay.uri), "src",
          List.of(0, 3)), Duration.ofSeconds(2))).doesNotThrowAnyException();
      assertThatThrownBy(() -> RelayPreflight.check(config(List.of(relay.uri), "src", List.of(0, 4)), Duration.ofSeconds(2)))
          .hasMessageStartingWith("partitions: source 'src' on " + relay.uri + " has no partition 4");
      assertThatThrownBy(() -> RelayPreflight.check(config(List.of(relay.uri), "orders", List.of(0)), Duration.ofSeconds(2)))
          .hasMessageStartingWith("source: relay " + relay.uri + " serves no source 'orders'");
    }
  }

  @Test
  void aRefusedTokenAnUntrustedRelayOrPlainHttpOnItsTlsPortExit2NamingTheRelayAndTheCause(@TempDir Path dir)
      throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued server = pki.server("relay", "127.0.0.1");
    Path token = Files.writeString(dir.resolve("token"), "the-right-token");
    Path wrong = Files.writeString(dir.resolve("wrong"), "a-wrong-token");
    try (RelayFixture relay = RelayFixture.startSecured(2, "eventsPerSecond: 10, maxEvents: 10",
        "tls: {certFile: " + server.certFile() + ", keyFile: " + server.keyFile() + "}\n"
            + "auth: {tokens: [{name: app, tokenFile: " + token + "}]}")) {
      String trusted = "tls: {caFile: " + pki.caFile() + "}";
      assertThat(main(dir, relay.uri, trusted, "auth: {tokenFile: " + wrong + "}"))
          .startsWith("configuration error: consumer.auth: relay " + relay.uri + " refused the request with HTTP 401: "
              + "the bearer token is not one this relay accepts");
      assertThat(main(dir, relay.uri, trusted))
          .startsWith("configuration error: consumer.auth: relay " + relay.uri + " refused the request with HTTP 401: "
              + "no Authorization header");
      TestPki other = TestPki.create(dir.resolve("other"), "other-ca");
      assertThat(main(dir, relay.uri, "tls: {caFile: " + other.caFile() + "}", "auth: {tokenFile: " + token + "}"))
          .startsWith("configuration error: consumer.tls: TLS handshake with relay " + relay.uri + " failed: its "
              + "certificate is not signed by a trusted CA");
      URI plain = URI.create("http://127.0.0.1:" + relay.uri.getPort());
      assertThat(main(dir, plain, "auth: {tokenFile: " + token + "}"))
          .startsWith("configuration error: consumer.relays: " + plain + " serves TLS on this port: plain HTTP on the "
              + "relay's TLS port; use https://127.0.0.1:" + relay.uri.getPort());
      ConsumerConfig good = ConsumerConfig.builder("src").relay(relay.uri.toString()).partitions(0, 1)
          .tls(new ConsumerConfig.Tls(pki.caFile().toString(), null, null))
          .auth(new ConsumerConfig.Auth(token.toString(), null)).build();
      assertThat(RelayPreflight.check(good, Duration.ofSeconds(5))).isEqualTo(2);
    }
  }

  /** Runs the service's main in this JVM with a config for {@code relay}; expects exit 2 and returns its error line. */
  private static String main(Path dir, URI relay, String... security) throws Exception {
    Path yaml = Files.writeString(dir.resolve("consumer.yml"), """
        consumer:
          source: src
          relays: [%s]
          partitions: [0]
          %s
        checkpoints: {dir: %s}
        http: {port: 0}
        startTimeout: 5s
        """.formatted(relay, String.join("\n  ", security), dir.resolve("checkpoints")));
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      code = ConsumerMain.run(new String[] {"--config", yaml.toString()});
    } finally {
      System.setErr(err);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertThat(code).as(output).isEqualTo(2);
    return output;
  }

  @Test
  void aPartitionTheRelayDoesNotServeFailsAtRunTimeNamingTheKey() throws Exception {
    try (RelayFixture relay = RelayFixture.start(2, "eventsPerSecond: 10, maxEvents: 10");
        GridwayConsumer consumer = GridwayConsumer.builder(config(List.of(relay.uri), "src", List.of(5)))
            .checkpointStore(new RecordingStore()).handler(batch -> { }).build()) {
      consumer.start();
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
          .until(() -> consumer.status(5).state() == PartitionStatus.State.FAILED);
      org.assertj.core.api.Assertions.assertThat(consumer.status(5).detail()).startsWith("partitions:");
    }
  }
}
