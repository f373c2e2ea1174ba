package io.gridway.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness starts relays and consumers with the JVM flags the distribution's launcher gives them. */
class JvmFlagsTest {
  private static final Path LAUNCHER = Path.of("..", "deploy", "src", "main", "dist", "bin", "gridway");

  @Test
  void theHarnessUsesTheLaunchersDefaultCollectorAndAFixedHeap() throws Exception {
    String script = Files.readString(LAUNCHER);
    assertThat(script).contains("case ${GRIDWAY_GC:-G1} in");
    assertThat(script).contains("G1|g1) gc=\"" + String.join(" ", Jvm.LAUNCHER_GC) + "\"");
    assertThat(script).contains("-Xms$heap -Xmx$heap");
    List<String> command = Jvm.command("768m", List.of("-Dx=y"), "Main", List.of("arg"));
    assertThat(command).contains("-Xms768m", "-Xmx768m").containsSubsequence(Jvm.LAUNCHER_GC)
        .containsSubsequence("-Dx=y", "-cp").endsWith("Main", "arg");
  }
}
