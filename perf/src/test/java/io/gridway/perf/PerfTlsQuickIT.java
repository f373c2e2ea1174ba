package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code relay-read --tls} and {@code e2e --tls} on a tiny load against a private MariaDB (issue 22): each
 * configuration runs over HTTP and HTTPS, both valid, and the report sets them side by side with a ratio and a
 * handshake probe. That the TLS runs really went over TLS shows in the relay's own start-up line (https://) and the
 * certificates in the results directory. It asserts the shape of the report, never a speed.
 */
class PerfTlsQuickIT {

  @Test
  @Timeout(value = 400, unit = TimeUnit.SECONDS)
  void relayReadOverTlsBesidePlaintext(@TempDir Path dir) throws Exception {
    JsonNode root = run(dir, "relay-read", "--records", "3000", "--readers", "1", "--tls");
    assertComparisons(root, "relay-read", 1);
    assertThat(root.path("tls").get(0).path("configuration").asText()).contains("1 HTTP reader");
    assertThat(Files.readString(dir.resolve("report/stage2-tls-relay-0.log"))).contains("listening on https://127.0.0.1:");
    assertThat(Files.readString(dir.resolve("report/stage2-relay-0.log"))).contains("listening on http://127.0.0.1:");
  }

  @Test
  @Timeout(value = 400, unit = TimeUnit.SECONDS)
  void endToEndOverTlsBesidePlaintext(@TempDir Path dir) throws Exception {
    JsonNode root = run(dir, "e2e", "--records", "3000", "--relays", "1", "--consumers", "1", "--tls");
    assertComparisons(root, "e2e", 1);
    assertThat(Files.readString(dir.resolve("report/e2e-r1-c1-null-long-poll-tls-relay-0.log")))
        .contains("listening on https://127.0.0.1:");
    assertThat(Files.readString(dir.resolve("report/e2e-r1-c1-null-long-poll-tls-0.yaml")))
        .contains("https://127.0.0.1:").contains("caFile: " + dir.resolve("report/tls/gridway-perf-ca.crt"));
  }

  private static JsonNode run(Path dir, String... args) throws Exception {
    Path json = dir.resolve("result.json");
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--out";
    all[args.length + 1] = dir.resolve("report").toString();
    all[args.length + 2] = "--json";
    all[args.length + 3] = json.toString();
    int exit = new CommandLine(new PerfCommand()).execute(all);
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(exit).as(root.toPrettyString()).isZero();
    assertThat(dir.resolve("report/tls/gridway-perf-ca.crt")).exists();
    assertThat(Files.readString(dir.resolve("report/report.md"))).contains("## TLS beside plaintext")
        .contains("TLS beside plaintext: the relay serves HTTPS");
    return root;
  }

  private static void assertComparisons(JsonNode root, String stage, int expected) {
    int secure = 0;
    for (JsonNode run : root.path("runs")) {
      assertThat(run.path("valid").asBoolean()).as(run.toString()).isTrue();
      if (run.path("stage").asText().equals(stage) && run.path("configuration").asText().contains("HTTPS")) {
        secure++;
      }
    }
    assertThat(secure).as(root.toPrettyString()).isEqualTo(expected);
    assertThat(root.path("tls")).as(root.toPrettyString()).hasSize(expected);
    for (JsonNode pair : root.path("tls")) {
      assertThat(pair.path("stage").asText()).isEqualTo(stage);
      assertThat(pair.path("plainEventsPerSec").asDouble()).as(pair.toString()).isPositive();
      assertThat(pair.path("tlsEventsPerSec").asDouble()).as(pair.toString()).isPositive();
      assertThat(pair.path("ratio").asDouble()).as(pair.toString())
          .isCloseTo(pair.path("tlsEventsPerSec").asDouble() / pair.path("plainEventsPerSec").asDouble(),
              org.assertj.core.data.Offset.offset(0.01));
      assertThat(pair.path("ratio").asDouble()).isPositive();
      assertThat(pair.path("protocol").asText()).startsWith("TLSv1.");
      assertThat(pair.path("cipherSuite").asText()).startsWith("TLS_");
      assertThat(pair.path("handshakeMs").asDouble()).isPositive();
      assertThat(pair.path("configuration").asText()).doesNotContain("HTTPS");
    }
  }
}
