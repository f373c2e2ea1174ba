package io.gridway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.config.ConfigException;
import io.gridway.relay.http.HttpConfig;
import org.junit.jupiter.api.Test;

class RelayConfigTest {

  @Test
  void minimalConfigGetsDefaults() {
    RelayConfig config = RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\n", "test.yaml");
    assertThat(config.source().partitions()).isEqualTo(1);
    assertThat(config.buffer().capacity().bytes()).isEqualTo(1L << 30);
    assertThat(config.buffer().maxWindow().bytes()).isEqualTo(256L << 20);
    assertThat(config.http().host()).isEqualTo("127.0.0.1");
    assertThat(config.http().limits().maxStreams()).isEqualTo(64);
    assertThat(config.source().settings(io.gridway.relay.source.SyntheticConfig.class).rowBytes()).isEqualTo(1100);
    assertThat(config.snapshot().limits()).isEqualTo(io.gridway.relay.snapshot.SnapshotService.Limits.DEFAULT);
  }

  @Test
  void fullConfigParses() {
    RelayConfig config = RelayConfig.parse("""
        source:
          id: orders
          partitions: 8
          synthetic:
            tables: 3
            rowBytes: 1100
            eventsPerSecond: 0
            maxEvents: 480000
            seed: 7
        buffer:
          capacity: 2GiB
          maxWindow: 64MiB
        http:
          host: 0.0.0.0
          port: 0
          limits:
            maxStreams: 8
            maxWait: 30s
          stream:
            heartbeat: 500ms
            writeBufferHighWater: 512KiB
        snapshot: {readers: 4, maxChunkRows: 5000, maxChunkBytes: 8MiB, chunksPerSecond: 50}
        """, "relay.yaml");
    assertThat(config.snapshot().limits()).isEqualTo(new io.gridway.relay.snapshot.SnapshotService.Limits(5_000, 8L << 20, 4, 50));
    assertThat(config.buffer().capacity().bytes()).isEqualTo(2L << 30);
    assertThat(config.http().stream().heartbeat().toMillis()).isEqualTo(500);
    assertThat(config.source().settings(io.gridway.relay.source.SyntheticConfig.class).maxEvents()).isEqualTo(480_000);
  }

  @Test
  void errorsNameTheFileLineKeyAndReason() {
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\nbufer:\n  capacity: 1GiB\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("relay.yaml:4").hasMessageContaining("unknown key 'bufer'");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\nbuffer:\n  capacity: 1MiB\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("buffer").hasMessageContaining("capacity must be 64MiB..1TiB");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic:\n    rowBytes: lots\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("rowBytes");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: 'bad id'\n  synthetic: {}\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("source").hasMessageContaining("id must be");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\nhttp:\n  port: 70000\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("port must be 0..65535");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\nhttp:\n  limits:\n    maxStreams: 9999\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.limits").hasMessageContaining("maxStreams");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\nsnapshot:\n  readers: 0\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("snapshot").hasMessageContaining("readers must be 1..64");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: demo\n  synthetic: {}\nsnapshot:\n  throttle: 5\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("relay.yaml:5").hasMessageContaining("unknown key 'throttle'");
    assertThatThrownBy(() -> RelayConfig.parse("buffer: {}\n", "relay.yaml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("source is required");
  }

  @Test
  void mysqlSourceTakesItsIdFromTheFetcherConfigAndPositionsAndPoliciesParse() {
    RelayConfig config = RelayConfig.parse("""
        source:
          partitions: 16
          mysql:
            source: shop
            host: db1
            user: gridway
            passwordEnv: GRIDWAY_PW
            serverId: 5401
            include: ['shop.*']
        positionFile: /var/lib/gridway/shop.json
        replay: 5m
        policy:
          files: [/etc/gridway/fetch.yaml]
          reloadInterval: 2s
        """, "relay.yaml");
    assertThat(config.source().id()).isEqualTo("shop");
    assertThat(config.source().settings(io.gridway.fetcher.mysql.MysqlFetcherConfig.class).port()).isEqualTo(3306);
    assertThat(config.replay().toMinutes()).isEqualTo(5);
    assertThat(config.positionFlush().toMillis()).isEqualTo(200);
    assertThat(config.policy().files()).containsExactly("/etc/gridway/fetch.yaml");
    assertThat(config.policy().reloadInterval().toSeconds()).isEqualTo(2);
  }

  @Test
  void sourceKindsAndReplayAreChecked() {
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n", "r.yaml"))
        .hasMessageContaining("type: required, one of goldengate, mysql, synthetic");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  synthetic: {}\n  mysql: {source: x, host: h, user: u, "
        + "passwordEnv: P, serverId: 1}\n", "r.yaml")).hasMessageContaining("give one of goldengate, mysql, synthetic, not both");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  type: oracle\n", "r.yaml"))
        .hasMessageContaining("source.type: 'oracle' is not one of goldengate, mysql, synthetic");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  type: mysql\n", "r.yaml"))
        .hasMessageContaining("source.mysql").hasMessageContaining("required");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  synthetc: {}\n", "r.yaml"))
        .hasMessageStartingWith("r.yaml:3:3: source.synthetc: unknown key 'synthetc'").hasMessageContaining("synthetic");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  synthetic: {rowBites: 10}\n", "r.yaml"))
        .hasMessageContaining("source.synthetic").hasMessageContaining("unknown key 'rowBites'");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  goldengate: {directory: /nonexistent, format: csv}\n",
        "r.yaml")).hasMessageContaining("source.goldengate");
    assertThatThrownBy(() -> RelayConfig.parse("""
        source:
          id: other
          mysql: {source: shop, host: h, user: u, passwordEnv: P, serverId: 1}
        """, "r.yaml")).hasMessageContaining("differs from mysql.source 'shop'");
    assertThatThrownBy(() -> RelayConfig.parse("source:\n  id: x\n  synthetic: {}\nreplay: 1m\n", "r.yaml"))
        .hasMessageContaining("replay needs a positionFile");
  }

  @Test
  void securitySettingsAreCheckedAndASecretIsNeverAValue() {
    String base = "source:\n  id: demo\n  synthetic: {}\nhttp:\n";
    RelayConfig config = RelayConfig.parse(base + "  tls: {certFile: a.crt, keyFile: a.key, clientCaFile: ca.pem}\n"
        + "  auth:\n    tokens:\n      - {name: app, tokenFile: /t, sources: [demo]}\n      - {name: ops, tokenEnv: OPS}\n",
        "relay.yaml");
    assertThat(config.http().scheme()).isEqualTo("https");
    assertThat(config.http().tls().reloadCheck()).hasSeconds(10);
    assertThat(config.http().auth().tokens()).extracting(HttpConfig.Token::name).containsExactly("app", "ops");
    assertThatThrownBy(() -> RelayConfig.parse(base + "  auth: {tokens: [{name: app, token: s3cret}]}\n", "relay.yaml"))
        .hasMessageContaining("unknown key 'token'").hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> RelayConfig.parse(base + "  auth: {tokens: [{name: app, tokenFile: /t, tokenEnv: T}]}\n",
        "relay.yaml")).hasMessageContaining("auth.tokens[app]: set exactly one of tokenFile and tokenEnv");
    assertThatThrownBy(() -> RelayConfig.parse(base + "  tls: {certFile: a.crt}\n", "relay.yaml"))
        .hasMessageContaining("tls: keyFile is required with certFile");
    assertThatThrownBy(() -> RelayConfig.parse(base + "  tls: {keyStoreFile: a.p12}\n", "relay.yaml"))
        .hasMessageContaining("tls: set exactly one of keyStorePasswordFile and keyStorePasswordEnv");
    assertThatThrownBy(() -> RelayConfig.parse(base + "  tls: {certFile: a.crt, keyFile: a.key}\ncluster: {zk: embedded, "
        + "zkDataDir: /tmp/z, name: g, instance: r1, endpoint: 'http://vm1:8080'}\n", "relay.yaml"))
        .hasMessageContaining("cluster.endpoint: 'http://vm1:8080' must be an https:// URL");
  }
}
