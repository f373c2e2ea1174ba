package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code systemd-analyze verify} accepts the unit files. It exits 0 even for unknown keys and unparsable
 * values (it only warns), so any output mentioning a unit fails the test too. The units' ExecStart
 * (/opt/gridway/current/bin/gridway) must exist for verify, so they are checked as copies pointing at a
 * stub; the template is checked as an instance (gridway-consumer@test.service).
 */
class SystemdUnitsTest {
  static final Path UNITS = Path.of("src/main/dist/systemd");

  @Test
  void systemdAnalyzeVerifyAcceptsTheUnits(@TempDir Path dir) throws Exception {
    assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed (apt-get install systemd); .ci/run should install it");
    Path stub = dir.resolve("opt/gridway/current/bin/gridway");
    Files.createDirectories(stub.getParent());
    Files.writeString(stub, "#!/bin/sh\n");
    Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> command = new ArrayList<>(List.of("systemd-analyze", "verify"));
    try (Stream<Path> units = Files.list(UNITS)) {
      for (Path unit : units.sorted().toList()) {
        String name = unit.getFileName().toString().replace("@.service", "@test.service");
        Path copy = dir.resolve(name);
        Files.writeString(copy, Files.readString(unit).replace("/opt/gridway/current", dir.resolve("opt/gridway/current").toString()));
        command.add(copy.toString());
      }
    }
    assertThat(command).hasSize(5);
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output.lines().filter(line -> line.contains("gridway"))).as(output).isEmpty();
  }

  @Test
  void everyRoleHasAHardenedRestartingUnit() throws IOException {
    for (String unit : List.of("gridway-relay.service", "gridway-consumer@.service", "gridway-controller.service")) {
      String text = Files.readString(UNITS.resolve(unit));
      assertThat(text).as(unit).contains("User=gridway", "Restart=on-failure", "LimitNOFILE=", "EnvironmentFile=",
          "NoNewPrivileges=yes", "ProtectSystem=strict", "RestartPreventExitStatus=2", "SuccessExitStatus=143",
          "RestartSec=5s");
      // the exit-code table in README.md: 1 restarts, 2 (configuration) does not, 143 (SIGTERM) is success
      assertThat(text.lines().filter(l -> l.startsWith("RestartPreventExitStatus=")).toList()).as(unit)
          .containsExactly("RestartPreventExitStatus=2");
    }
  }

  static boolean onPath(String program) {
    String path = System.getenv("PATH");
    return path != null && Stream.of(path.split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, program)));
  }
}
