package io.gridway.relay.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.cluster.ZkConfig;
import io.gridway.core.config.ConfigException;
import io.gridway.relay.RelayConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RelayClusterConfigTest {
  private static RelayConfig parse(String cluster) {
    return RelayConfig.parse("source:\n  id: shop\n  synthetic: {}\ncluster:\n" + cluster, "relay.yaml");
  }

  @Test
  void anExternalEnsembleWithDefaults() {
    RelayClusterConfig c = parse("  zk: zk1:2181,zk2:2181\n  name: gridway\n  instance: relay-vm1\n").cluster();
    assertThat(c.isEmbedded()).isFalse();
    assertThat(c.replicas()).isEqualTo(2);
    assertThat(c.endpoint()).isNull();
    assertThat(c.zkConfig().connectString()).isEqualTo("zk1:2181,zk2:2181");
    assertThat(c.zkConfig().sessionTimeout()).isEqualTo(ZkConfig.DEFAULT_SESSION_TIMEOUT);
  }

  @Test
  void anEmbeddedServerWithAShortSessionGetsATickItAccepts() {
    RelayClusterConfig c = parse("  zk: embedded\n  zkDataDir: /tmp/zk\n  zkPort: 0\n  sessionTimeout: 2s\n  name: g\n  instance: r1\n"
        + "  endpoint: http://vm1:8080\n  replicas: 3\n").cluster();
    assertThat(c.zkConfig().isEmbedded()).isTrue();
    assertThat(c.zkConfig().dataDir()).isEqualTo(Path.of("/tmp/zk"));
    assertThat(c.zkConfig().tick()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.endpoint()).isEqualTo("http://vm1:8080");
  }

  @Test
  void replayNeedsNoPositionFileInClusterMode() {
    RelayConfig config = RelayConfig.parse("source:\n  id: shop\n  synthetic: {}\nreplay: 10s\ncluster:\n  zk: z:2181\n  name: g\n"
        + "  instance: r1\n", "relay.yaml");
    assertThat(config.replay()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void badValuesNameTheirKey() {
    assertThatThrownBy(() -> parse("  zk: embedded\n  name: g\n  instance: r1\n")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("cluster.zkDataDir: required with zk: embedded");
    assertThatThrownBy(() -> parse("  zk: z:2181\n  zkPort: 2181\n  name: g\n  instance: r1\n"))
        .hasMessageContaining("cluster.zkDataDir/zkPort: only with zk: embedded");
    assertThatThrownBy(() -> parse("  zk: z:2181\n  name: g\n  instance: 'relay 1'\n"))
        .hasMessageContaining("cluster.instance: 'relay 1' must be");
    assertThatThrownBy(() -> parse("  zk: z:2181\n  name: g\n  instance: r1\n  endpoint: vm1:8080\n"))
        .hasMessageContaining("cluster.endpoint: 'vm1:8080' is not http://host:port");
    assertThatThrownBy(() -> parse("  zk: z:2181\n  name: g\n  instance: r1\n  replicas: 0\n"))
        .hasMessageContaining("cluster.replicas: 1..100, not 0");
    assertThatThrownBy(() -> parse("  zk: z:2181\n  name: g\n  instance: r1\n  sessionTimeout: 100ms\n"))
        .hasMessageContaining("cluster.zk: session timeout");
    assertThatThrownBy(() -> parse("  zk: z:2181\n  name: g\n")).hasMessageContaining("instance");
  }
}
