package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How QuickstartIT's supervisor reads the shipped units and decides restarts (systemd.service(5), Restart= table). */
class ServiceUnitTest {
  private static final Path UNITS = Path.of("src/main/dist/systemd");

  @Test
  void theConsumerTemplateRestartsAfterFailuresAndSignalsButNotAfterAConfigurationErrorOrAStop() throws Exception {
    ServiceUnit unit = ServiceUnit.parse(UNITS.resolve("gridway-consumer@.service"), "gridway-consumer@orders.service");
    assertThat(unit.execStart()).containsExactly("/opt/gridway/current/bin/gridway", "consumer", "--config",
        "/etc/gridway/consumer-orders.yaml");
    assertThat(unit.environmentFiles()).containsExactly("-/etc/gridway/gridway.env", "-/etc/gridway/consumer-orders.env");
    assertThat(unit.environment()).containsEntry("GRIDWAY_LOG_DIR", "/var/log/gridway");
    assertThat(unit.stateDirectories()).containsExactly("gridway");
    assertThat(unit.restartSec()).isEqualTo(Duration.ofSeconds(5));
    assertThat(unit.restartsAfter(1)).as("a failure at run time").isTrue();
    assertThat(unit.restartsAfter(137)).as("SIGKILL").isTrue();
    assertThat(unit.restartsAfter(2)).as("a configuration error: RestartPreventExitStatus=2").isFalse();
    assertThat(unit.restartsAfter(143)).as("SIGTERM's exit: SuccessExitStatus=143").isFalse();
    assertThat(unit.restartsAfter(0)).isFalse();
  }

  @Test
  void everyShippedUnitIsOneTheSupervisorUnderstands() throws Exception {
    for (String name : new String[] {"gridway-relay.service", "gridway-controller.service"}) {
      ServiceUnit unit = ServiceUnit.parse(UNITS.resolve(name), name);
      assertThat(unit.user()).isEqualTo("gridway");
      assertThat(unit.restartsAfter(137)).as(name).isTrue();
      assertThat(unit.restartsAfter(2)).as(name).isFalse();
    }
  }
}
