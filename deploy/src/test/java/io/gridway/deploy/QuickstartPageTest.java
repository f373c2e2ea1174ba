package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How QuickstartIT reads docs/quickstart.md: the substitutions the page announces, and nothing else. */
class QuickstartPageTest {
  @Test
  void systemPathsMoveUnderTheRootOnceAndTheServiceUserBecomesTheTestsUser() {
    String unit = "User=gridway\nGroup=gridway\nEnvironmentFile=-/etc/gridway/gridway.env\n"
        + "ExecStart=/opt/gridway/current/bin/gridway consumer --config /etc/gridway/consumer-%i.yaml\n"
        + "ReadWritePaths=/var/lib/gridway /var/log/gridway\nDescription=gridway-relay /etc/gridwayish\n";
    String moved = QuickstartPage.relocate(unit, "/tmp/t/root", "me", "us");
    assertThat(moved).isEqualTo("User=me\nGroup=us\nEnvironmentFile=-/tmp/t/root/etc/gridway/gridway.env\n"
        + "ExecStart=/tmp/t/root/opt/gridway/current/bin/gridway consumer --config /tmp/t/root/etc/gridway/consumer-%i.yaml\n"
        + "ReadWritePaths=/tmp/t/root/var/lib/gridway /tmp/t/root/var/log/gridway\n"
        + "Description=gridway-relay /tmp/t/root/etc/gridwayish\n");
    assertThat(QuickstartPage.relocate(moved, "/tmp/t/root", "me", "us")).as("idempotent").isEqualTo(moved);
    assertThat(QuickstartPage.relocate("chgrp gridway /etc/gridway/gridway.env", "/r", "me", "us"))
        .isEqualTo("chgrp us /r/etc/gridway/gridway.env");
  }

  @Test
  void onlyCommandsThatChangeTheMachineOrNeedSystemdAreLeftOutOfTheTest() throws Exception {
    QuickstartPage page = new QuickstartPage(Files.readString(Path.of("..", "docs", "quickstart.md")));
    long notRun = 0;
    for (QuickstartPage.Block block : page.steps()) {
      if (!block.runs()) {
        notRun++;
        assertThat(block.text().lines().skip(1)).as("block %d", block.number())
            .allMatch(line -> line.matches("(apt-get|useradd|systemctl|journalctl) .*"));
      }
    }
    assertThat(notRun).isEqualTo(3);
  }

  @Test
  void theSettingsBlockMustSetExactlyTheNamesTheTestGives() throws Exception {
    QuickstartPage page = new QuickstartPage(Files.readString(Path.of("..", "docs", "quickstart.md")));
    Map<String, String> values = new LinkedHashMap<>();
    for (String name : new String[] {"MARIADB_HOST", "MARIADB_PORT", "MARIADB_ADMIN", "SOURCE_DB", "PG_HOST", "PG_PORT",
        "PSQL_ADMIN", "TARGET_DB", "ZK_PORT", "RELAY_PORT", "CONSUMER1_PORT", "CONSUMER2_PORT", "GRIDWAY_VERSION"}) {
      values.put(name, "v");
    }
    assertThat(page.settings(values)).contains("MARIADB_ADMIN='v'\n");
    values.remove("ZK_PORT");
    assertThatThrownBy(() -> page.settings(values)).hasMessageContaining("sets ZK_PORT, which QuickstartIT gives no value");
    values.put("ZK_PORT", "v");
    values.put("EXTRA", "v");
    assertThatThrownBy(() -> page.settings(values)).hasMessageContaining("does not set [EXTRA]");
  }
}
