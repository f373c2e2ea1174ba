package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GridwayTest {
  /** Every command path a user can type, each checked for --help. */
  static final List<String> COMMANDS = List.of("", "relay", "consumer", "admin", "controller", "cluster", "cluster init", "cluster status",
      "snapshot", "perf", "perf load", "perf stage1", "demo",
      "policy", "policy validate", "policy explain", "parked", "parked list", "parked replay", "parked discard", "version");

  @Test
  void everyCommandHasHelpWithUsageAndExamples() {
    for (String command : COMMANDS) {
      String[] args = (command.isEmpty() ? "--help" : command + " --help").split(" ");
      Run run = Run.of(args);
      assertThat(run.code()).as(command).isZero();
      assertThat(run.out()).as(command).contains("Usage:").contains("Examples:");
      assertThat(run.err()).as(command).isEmpty();
    }
  }

  @Test
  void topLevelHelpListsEveryCommandAndTheExitCodes() {
    Run run = Run.of("--help");
    assertThat(run.out()).contains("relay", "consumer", "admin", "controller", "cluster", "policy", "version")
        .contains("Exit codes:").contains("0", "1", "2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"relay", "consumer", "admin", "controller", "cluster status", "cluster init"})
  void misspeltOptionIsOneParagraphAndExitCode2(String command) {
    Run run = Run.of((command + " --confg x.yaml").split(" "));
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
    assertThat(run.err()).contains("--confg").contains("did you mean").contains("--help");
  }

  @ParameterizedTest
  @ValueSource(strings = {"relay", "consumer", "admin", "controller", "cluster status", "cluster init"})
  void missingConfigFileIsOneParagraphAndExitCode2(String command, @TempDir Path dir) {
    Path missing = dir.resolve("nope.yaml");
    Run run = Run.of((command + " --config " + missing).split(" "));
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
    assertThat(run.err()).contains(missing.toString()).contains("no such file");
  }

  @Test
  void missingPolicyFileNamesItWithExitCode2(@TempDir Path dir) {
    // The policy engine's own report: one line per error plus a count line ("1 error in 1 file"), no stack trace.
    Path missing = dir.resolve("nope.yaml");
    Run run = Run.of("policy", "validate", missing.toString());
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertThat(run.err()).contains(missing + ": cannot read").contains("1 error").doesNotContain("\tat ");
  }

  @Test
  void demoHelpListsItsExitCodesIncludingDifferent() {
    Run run = Run.of("demo", "--help");
    assertThat(run.out()).contains("--duration", "--rate", "--keep", "Exit codes:", "mariadb-server", "postgresql")
        .containsPattern("3 +source and target differ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"demo --durration 20s", "demo --rat 5", "demo --kep"})
  void demoMisspeltOptionIsOneParagraphAndExitCode2(String line) {
    Run run = Run.of(line.split(" "));
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
    assertThat(run.err()).contains("did you mean").contains("gridway demo --help");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--rate 0", "--duration 20", "--duration soon", "--partitions 0"})
  void demoBadValueIsOneParagraphAndExitCode2(String options) {
    Run run = Run.of(("demo " + options).split(" "));
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
    assertThat(run.err()).contains(options.split(" ")[0]);
  }

  @Test
  void badKeyNamesFileLineAndKeyWithoutStackTrace(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("controller.yaml");
    java.nio.file.Files.writeString(file, "cluster: gridway\nzk:\n  connect: 127.0.0.1:1\n  sesionTimeout: 5s\n");
    Run run = Run.of("controller", "--config", file.toString());
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
    assertThat(run.err()).contains(file + ":4").contains("sesionTimeout");
  }

  @Test
  void verboseAddsTheStackTrace(@TempDir Path dir) {
    Run run = Run.of("relay", "--verbose", "--config", dir.resolve("nope.yaml").toString());
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertThat(run.err()).contains("\tat io.gridway");
  }

  @Test
  void noCommandIsAUsageError() {
    Run run = Run.of();
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
  }

  @Test
  void clusterNeedsConfigOrZkAndCluster() {
    Run run = Run.of("cluster", "status", "--zk", "127.0.0.1:1");
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(run.err());
    assertThat(run.err()).contains("--cluster");
  }

  @Test
  void snapshotNamesABadTableOrTimeoutBeforeItAsksZooKeeper() {
    Run table = Run.of("snapshot", "--group", "g", "--tables", "shop.orders,nodot", "--zk", "127.0.0.1:1", "--cluster", "c");
    assertThat(table.code()).isEqualTo(Gridway.USAGE);
    assertOneParagraph(table.err());
    assertThat(table.err()).contains("--tables: 'nodot' is not db.table");
    Run timeout = Run.of("snapshot", "--group", "g", "--timeout", "0", "--zk", "127.0.0.1:1", "--cluster", "c");
    assertThat(timeout.code()).isEqualTo(Gridway.USAGE);
    assertThat(timeout.err()).contains("--timeout: at least 1 second, not 0");
    assertThat(Run.of("snapshot", "--tables", "a.b").err()).contains("--group");
  }

  @Test
  void dashVOnASubcommandPrintsTheVersion() {
    Run run = Run.of("cluster", "status", "-V");
    assertThat(run.code()).isZero();
    assertThat(run.out()).startsWith("gridway 0.");
  }

  @Test
  void versionPrintsTheBuildVersion() {
    Run run = Run.of("version");
    assertThat(run.code()).isZero();
    assertThat(run.out()).startsWith("gridway ").doesNotContain("unknown").contains("Java");
  }

  @Test
  void policyErrorsPassThroughWithCode2(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("p.yaml");
    java.nio.file.Files.writeString(file, "name: p\nversion: 1\nrulez: []\n");
    Run run = Run.of("policy", "validate", file.toString());
    assertThat(run.code()).isEqualTo(Gridway.USAGE);
    assertThat(run.err()).contains(file.toString()).contains("rulez");
  }

  static void assertOneParagraph(String err) {
    assertThat(err).isNotBlank();
    assertThat(err.strip()).doesNotContain("\n").doesNotContain("\tat ").doesNotContain("Exception");
  }
}
