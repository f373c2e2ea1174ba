package io.gridway.consumer.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.service.ServiceConfig;
import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import org.junit.jupiter.api.Test;

class DiscoveryConfigTest {
  private static ServiceConfig parse(String consumer) {
    return ConfigLoader.parse("consumer:\n  source: orders\n  partitions: [0]\n" + consumer + "checkpoints: {dir: /tmp/c}\n",
        "consumer.yml", ServiceConfig.class);
  }

  @Test
  void discoveryReplacesTheRelayList() {
    ServiceConfig config = parse("  discovery: {zk: 'zk1:2181,zk2:2181', cluster: gridway}\n");
    assertThat(config.consumer().isDiscovering()).isTrue();
    assertThat(config.consumer().relays()).isEmpty();
    assertThat(config.consumer().discovery().sessionTimeout()).isEqualTo(ZkConfig.DEFAULT_SESSION_TIMEOUT);
    assertThat(config.consumer().withGroup("g").discovery()).isEqualTo(config.consumer().discovery());
  }

  @Test
  void exactlyOneOfRelaysAndDiscovery() {
    assertThatThrownBy(() -> parse("")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("relays: at least one relay URL is required (or discovery)");
    assertThatThrownBy(() -> parse("  relays: [http://r:8080]\n  discovery: {zk: 'z:2181', cluster: g}\n"))
        .hasMessageContaining("relays: not with discovery");
  }

  @Test
  void badDiscoveryValuesNameTheirKey() {
    assertThatThrownBy(() -> parse("  discovery: {cluster: g}\n")).hasMessageContaining("zk");
    assertThatThrownBy(() -> parse("  discovery: {zk: 'z:2181', cluster: 'my cluster'}\n"))
        .hasMessageContaining("discovery.cluster: 'my cluster' must be");
    assertThatThrownBy(() -> parse("  discovery: {zk: 'z:2181', cluster: g, sessionTimeout: 10ms}\n"))
        .hasMessageContaining("discovery.sessionTimeout: at least 1s");
  }
}
