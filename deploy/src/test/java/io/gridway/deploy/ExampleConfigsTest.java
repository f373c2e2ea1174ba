package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.service.ServiceConfig;
import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.RelayConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The distribution's conf/ examples load through the real config classes, so they cannot rot silently. */
class ExampleConfigsTest {
  static final Path CONF = Path.of("src/main/dist/conf");

  @Test
  void relayExampleLoadsAsAMysqlSource() {
    RelayConfig config = RelayConfig.load(CONF.resolve("relay.yaml"));
    assertThat(config.source().settings(io.gridway.fetcher.mysql.MysqlFetcherConfig.class)).isNotNull();
    assertThat(config.source().id()).isEqualTo("shop");
    assertThat(config.source().partitions()).isEqualTo(16);
    assertThat(config.startTimeout()).isEqualTo(java.time.Duration.ofMinutes(2));
  }

  @Test
  void consumerExampleLoads() {
    ServiceConfig config = ConfigLoader.load(CONF.resolve("consumer.yaml"), ServiceConfig.class);
    assertThat(config.consumer().source()).isEqualTo("shop");
    assertThat(config.consumer().partitions()).hasSize(8);
  }

  @Test
  void controllerExampleLoads() {
    ControllerConfig config = ControllerConfig.load(CONF.resolve("controller.yaml"));
    assertThat(config.cluster()).isEqualTo("gridway");
    assertThat(config.zk().toZkConfig().isEmbedded()).isFalse();
  }

  @Test
  void controllerEmbeddedAlternativeLoads() {
    ControllerConfig config = ConfigLoader.parse("cluster: gridway\nzk:\n  embedded: {dataDir: /tmp/zk, port: 2181}\n", "inline",
        ControllerConfig.class);
    assertThat(config.zk().clientConfig().connectString()).isEqualTo("127.0.0.1:2181");
  }

  @Test
  void adminExampleLoadsOnLoopback() {
    AdminConfig config = AdminConfig.load(CONF.resolve("admin.yaml"));
    assertThat(config.http().host()).isEqualTo("127.0.0.1");
    assertThat(config.http().port()).isEqualTo(8480);
    assertThat(config.stateDir()).isEqualTo(Path.of("/var/lib/gridway/admin"));
    assertThat(config.sessionTimeout()).isEqualTo(java.time.Duration.ofHours(8));
  }

  @Test
  void adminConfigRejectsAMissingStateDirAndUnknownKeys() {
    assertThatThrownBy(() -> ConfigLoader.parse("cluster: gridway\nzk: {connect: 'z:2181'}\n", "inline", AdminConfig.class))
        .hasMessageContaining("stateDir");
    assertThatThrownBy(() -> ConfigLoader.parse("cluster: gridway\nzk: {connect: 'z:2181'}\nstateDir: /tmp/a\npassword: x\n", "inline",
        AdminConfig.class)).hasMessageContaining("password");
  }

  @Test
  void policyExampleValidates() {
    Run run = Run.of("policy", "validate", CONF.resolve("policy.yaml").toString());
    assertThat(run.err()).isEmpty();
    assertThat(run.code()).isZero();
  }

  @Test
  void policyPartitionsFitTheRelayExample() {
    // orders-by-key uses key-hash: 16, i.e. partitions 0..15; relay.yaml declares 16.
    assertThat(RelayConfig.load(CONF.resolve("relay.yaml")).source().partitions()).isGreaterThanOrEqualTo(16);
  }
}
