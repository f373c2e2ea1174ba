package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.consumer.service.ServiceConfig;
import io.gridway.applier.jdbc.JdbcTargetConfig;
import io.gridway.core.config.ConfigLoader;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyLoader;
import io.gridway.relay.RelayConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The files of docs/two-way.md load, and each side's relay and consumer agree on the side's origin. */
class TwoWayExampleTest {
  private static final Path EXAMPLE = Path.of("..", "docs", "examples", "two-way").toAbsolutePath().normalize();

  @Test
  void theExampleFilesLoadAndEachSideUsesOnePolicyForItsRelayAndItsConsumer() throws Exception {
    for (String side : new String[] {"a", "b"}) {
      String other = side.equals("a") ? "b" : "a";
      Policy policy = PolicyLoader.create().load(EXAMPLE.resolve("dc-" + side + ".yaml"));
      assertThat(policy.origin()).isEqualTo("dc-" + side);
      RelayConfig relay = RelayConfig.parse(Files.readString(EXAMPLE.resolve("relay-" + side + ".yaml")), "relay-" + side);
      assertThat(relay.policy().files()).containsExactly("/etc/gridway/dc-" + side + ".yaml");
      ServiceConfig consumer = ConfigLoader.load(EXAMPLE.resolve("consumer-" + other + "-to-" + side + ".yaml"), ServiceConfig.class);
      assertThat(consumer.applier().settings(JdbcTargetConfig.class).policy()).isEqualTo(Path.of("/etc/gridway/dc-" + side + ".yaml"));
      assertThat(consumer.consumer().source()).isEqualTo(other);
    }
  }
}
