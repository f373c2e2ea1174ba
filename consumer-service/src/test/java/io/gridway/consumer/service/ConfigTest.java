package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.apply.LoggingApplierProvider;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigTest {
  private static final String GOOD = """
      consumer:
        source: orders
        relays: [http://127.0.0.1:8080, http://127.0.0.1:8081]
        partitions: [0, 1]
        pull: {mode: stream, compression: lz4, bufferBytes: 16MiB, waitTime: 2s}
        batch: {maxEvents: 1000, maxBytes: 4MiB, maxWait: 10ms, maxInFlight: 2}
        microBatch: {count: 4, partitioner: column-value, column: tenant_id}
        retry: {maxAttempts: 3, backoff: 50ms, maxBackoff: 1s}
      checkpoints:
        dir: /tmp/checkpoints
      applier:
        type: logging
      """;

  private static ServiceConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "consumer.yml", ServiceConfig.class);
  }

  @Test
  void aFullConfigLoads() {
    ServiceConfig config = parse(GOOD);
    assertThat(config.consumer().pull().mode()).isEqualTo(ConsumerConfig.Mode.STREAM);
    assertThat(config.consumer().pull().bufferBytes().bytes()).isEqualTo(16L << 20);
    assertThat(config.consumer().pull().idleTimeout()).isEqualTo(Duration.ofSeconds(12));
    assertThat(config.consumer().microBatch().count()).isEqualTo(4);
    assertThat(config.consumer().group()).isEqualTo("default");
    assertThat(config.applier().settings(LoggingApplierProvider.Settings.class).output()).isEqualTo("-");
  }

  @Test
  void httpStartTimeoutAndWhereHaveDefaultsAndAreRead() {
    ServiceConfig defaults = parse(GOOD);
    assertThat(defaults.http()).isEqualTo(new ServiceConfig.Http("127.0.0.1", ServiceConfig.Http.DEFAULT_PORT));
    assertThat(defaults.startTimeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(defaults.consumer().where()).isNull();
    ServiceConfig set = parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  where: 'row.qty > 0'\n")
        + "http: {host: 0.0.0.0, port: 0}\nstartTimeout: 30s\n");
    assertThat(set.http()).isEqualTo(new ServiceConfig.Http("0.0.0.0", 0));
    assertThat(set.startTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(set.consumer().where()).isEqualTo("row.qty > 0");
    assertThatThrownBy(() -> parse(GOOD + "http: {port: 70000}\n")).hasMessageContaining("http.port: 0..65535, not 70000");
    assertThatThrownBy(() -> parse(GOOD + "startTimeout: 25h\n")).hasMessageContaining("startTimeout: 0..24h, not PT25H");
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  where: ' '\n")))
        .hasMessageContaining("where: must not be empty");
  }

  @Test
  void theStartPositionIsReadAndCheckedWithItsKey() {
    assertThat(parse(GOOD).consumer().start()).isEqualTo("earliest");
    assertThat(parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  start: latest\n")).consumer()
        .startsLatest()).isTrue();
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  start: nope\n")))
        .hasMessageContaining("start: must be earliest, latest, snapshot, scn:N or time:T");
    assertThat(parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  start: 'time:2026-11-26T09:15:00+01:00'\n"))
        .consumer().startOpening()).isEqualTo("time:2026-11-26T08:15:00Z");
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  start: time:noon\n")))
        .hasMessageContaining("start: time:T needs an ISO-8601 instant");
    ServiceConfig snapshot = parse(GOOD.replace("mode: stream", "mode: long-poll").replace("  partitions: [0, 1]\n",
        "  partitions: [0, 1]\n  start: snapshot\n  snapshot: {tables: [shop.orders, shop.lines], chunkRows: 500, chunkBytes: 1MiB}\n"));
    assertThat(snapshot.consumer().startsWithSnapshot()).isTrue();
    assertThat(snapshot.consumer().snapshot().tables()).containsExactly("shop.orders", "shop.lines");
    assertThat(snapshot.consumer().snapshot().chunkBytes().bytes()).isEqualTo(1L << 20);
    // no list: the tables the relay captures, asked when the partition starts (docs/bootstrap.md "Default tables")
    ServiceConfig everything = parse(GOOD.replace("mode: stream", "mode: long-poll").replace("  partitions: [0, 1]\n",
        "  partitions: [0, 1]\n  start: snapshot\n"));
    assertThat(everything.consumer().snapshot().tables()).isEmpty();
    assertThat(everything.consumer().onEvicted()).isEqualTo("snapshot");
    // stream mode loads too (docs/bootstrap.md §5.1, "Stream mode")
    assertThat(parse(GOOD.replace("  partitions: [0, 1]\n",
        "  partitions: [0, 1]\n  start: snapshot\n  snapshot: {tables: [shop.orders]}\n")).consumer().onEvicted())
        .isEqualTo("snapshot");
    ServiceConfig knobs = parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  start: snapshot\n"
        + "  snapshot: {tables: [shop.orders], chunkBytes: 4MiB, readAhead: 3, maxBytesPerSecond: 8MiB}\n"));
    assertThat(knobs.consumer().snapshot().readAhead()).isEqualTo(3);
    assertThat(knobs.consumer().snapshot().maxBytesPerSecond().bytes()).isEqualTo(8L << 20);
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  start: snapshot\n"
        + "  snapshot: {tables: [shop.orders], chunkBytes: 8MiB, readAhead: 3}\n")))
        .hasMessageContaining("snapshot.readAhead: 3 chunks of snapshot.chunkBytes").hasMessageContaining("16MiB");
    assertThat(snapshot.consumer().onEvicted()).isEqualTo("snapshot");
    assertThat(parse(GOOD).consumer().onEvicted()).isEqualTo("stop");
    assertThat(parse(GOOD.replace("mode: stream", "mode: long-poll").replace("  partitions: [0, 1]\n",
        "  partitions: [0, 1]\n  onEvicted: stop\n  snapshot: {tables: [shop.orders]}\n")).consumer().onEvicted())
        .isEqualTo("stop");
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]\n", "  partitions: [0, 1]\n  onEvicted: wait\n")))
        .hasMessageContaining("onEvicted: must be snapshot or stop");
  }

  @Test
  void anUnknownKeyIsRejectedByName() {
    assertThatThrownBy(() -> parse(GOOD.replace("maxInFlight: 2", "maxInflight: 2")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("consumer.yml:6")
        .hasMessageContaining("consumer.batch.maxInflight")
        .hasMessageContaining("unknown key 'maxInflight'")
        .hasMessageContaining("maxInFlight");
  }

  @Test
  void negativeSizesAreRejectedNamingTheKey() {
    assertThatThrownBy(() -> parse(GOOD.replace("bufferBytes: 16MiB", "bufferBytes: -1")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("bufferBytes");
    assertThatThrownBy(() -> parse(GOOD.replace("maxEvents: 1000", "maxEvents: -5")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("batch.maxEvents: must be positive, was -5");
    assertThatThrownBy(() -> parse(GOOD.replace("maxBytes: 4MiB", "maxBytes: 0")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("batch.maxBytes: must be positive");
    assertThatThrownBy(() -> parse(GOOD.replace("waitTime: 2s", "waitTime: -2s")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("waitTime");
  }

  @Test
  void badValuesNameTheirKey() {
    assertThatThrownBy(() -> parse(GOOD.replace("partitions: [0, 1]", "partitions: [0, 70000]")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("partitions: 70000 out of range 0..65535");
    assertThatThrownBy(() -> parse(GOOD.replace("http://127.0.0.1:8081", "ftp://x")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("relays: 'ftp://x' is not an http://host:port or https://host:port URL");
    String tls = "  tls: {caFile: /etc/gridway/ca.pem}\n  partitions: [0, 1]";
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]", tls)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("relays: 'http://127.0.0.1:8080' is plain http, and tls is set");
    assertThatThrownBy(() -> parse(GOOD.replace("http://127.0.0.1:8081", "https://127.0.0.1:8081")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("is https: set tls");
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]", "  auth: {token: s3cret}\n  partitions: [0, 1]")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key 'token'")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> parse(GOOD.replace("  partitions: [0, 1]", "  auth: {tokenFile: a, tokenEnv: B}\n  partitions: [0, 1]")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("auth: set exactly one of tokenFile and tokenEnv");
    assertThatThrownBy(() -> parse(GOOD.replace("column: tenant_id", "column: ''")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("microBatch.column: required");
    assertThatThrownBy(() -> parse(GOOD.replace("compression: lz4", "compression: brotli")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("pull.compression: 'brotli' is not one of");
    assertThatThrownBy(() -> parse(GOOD.replace("mode: stream", "mode: push")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("'push' is not one of long-poll, stream");
    assertThatThrownBy(() -> parse(GOOD.replace("type: logging", "type: kafka")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("applier.type: 'kafka' is not one of jdbc, logging, null");
    assertThatThrownBy(() -> parse(GOOD.replace("  source: orders\n", "")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("source");
    assertThatThrownBy(() -> parse(GOOD.replace("checkpoints:\n  dir: /tmp/checkpoints\n", "")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("checkpoints");
  }

  @Test
  void theRelaysPartitionListIsRead() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    assertThat(RelayPreflight.served(json.readTree("[{\"partition\":0,\"newestScn\":null},{\"partition\":5,\"newestScn\":\"42\"}]")))
        .containsExactlyInAnyOrder(0, 5);
    assertThatThrownBy(() -> RelayPreflight.served(json.readTree("\"0-7\""))).hasMessageContaining("no partitions list");
  }
}
