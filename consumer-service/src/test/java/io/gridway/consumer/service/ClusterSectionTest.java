package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.cluster.ZkConfig;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The {@code cluster:} section of the consumer service's file: ZooKeeper address and session. */
class ClusterSectionTest {
  private static final String BASE = """
      consumer:
        source: orders
        relays: [http://127.0.0.1:8080]
      cluster:
        name: gridway
        instance: host1_8090
        partitions: 12
      """;

  private static ServiceConfig parse(String cluster) {
    return ConfigLoader.parse(BASE + cluster, "consumer.yml", ServiceConfig.class);
  }

  @Test
  void theSessionTimeoutDefaultsToTheClusterModulesDefaultAndReachesTheZkConfig() {
    ZkConfig zk = parse("  zk: zk1:2181,zk2:2181\n").cluster().zkConfig();
    assertThat(zk.connectString()).isEqualTo("zk1:2181,zk2:2181");
    assertThat(zk.sessionTimeout()).isEqualTo(ZkConfig.DEFAULT_SESSION_TIMEOUT).isEqualTo(Duration.ofSeconds(6));
    assertThat(parse("  zk: zk1:2181\n  sessionTimeout: 2s\n").cluster().zkConfig().sessionTimeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aSessionBelowOneSecondIsRejectedNamingTheKey() {
    assertThatThrownBy(() -> parse("  zk: zk1:2181\n  sessionTimeout: 500ms\n")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("cluster.sessionTimeout").hasMessageContaining("below 1 s");
  }

  @Test
  void embeddedZooKeeperIsRefusedWithWhereItRuns() {
    assertThatThrownBy(() -> parse("  zk: embedded\n")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("cluster.zk: 'embedded' is hosted by the controller").hasMessageContaining("127.0.0.1:2181");
  }
}
