package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.checkpoint.FileCheckpointStore;
import io.gridway.core.checkpoint.Checkpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/embedding.md's program, exactly as the page shows it: compiled from the page and run in its own JVM against a
 * real relay until it has printed every event, then stopped with SIGTERM; its checkpoint files then hold the relay's
 * newest SCN for both partitions.
 */
class EmbeddingDocIT {
  private static final Path PAGE = Path.of("..", "docs", "embedding.md");

  @TempDir
  Path dir;

  @Test
  void thePagesProgramCompilesConsumesAndCheckpoints() throws Exception {
    Path source = dir.resolve("src").resolve("PrintOrders.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, javaBlock(Files.readString(PAGE, StandardCharsets.UTF_8)));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    String classPath = System.getProperty("java.class.path");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    boolean compiled = javac.getTask(diagnostics, null, null,
        List.of("-cp", classPath, "-d", classes.toString(), "-Xlint:all", "-Werror"), null,
        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(source)).call();
    assertThat(compiled).as("the page's program compiles: %s", diagnostics).isTrue();

    Path checkpoints = dir.resolve("checkpoints");
    try (RelayFixture relay = RelayFixture.start("orders", 2, "eventsPerSecond: 2000, maxEvents: 300, rowBytes: 64")) {
      Process program = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx128m", "-cp", classes + java.io.File.pathSeparator + classPath, "PrintOrders", relay.uri.toString(),
          checkpoints.toString()).redirectErrorStream(true).start();
      List<String> lines = new CopyOnWriteArrayList<>();
      Thread reader = new Thread(() -> readLines(program, lines), "print-orders-output");
      reader.start();
      try {
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.eventsPublished() >= 300
            && lines.stream().filter(line -> line.contains(" INSERT ") || line.contains(" UPDATE ")
                || line.contains(" DELETE ")).count() >= 300);
      } finally {
        program.destroy(); // SIGTERM: the shutdown hook stops the consumer and writes its final checkpoints
        assertThat(program.waitFor(30, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        reader.join(5_000);
      }
      assertThat(lines).as("events only, no failure").noneMatch(line -> line.contains("stopped:"));
      try (FileCheckpointStore store = new FileCheckpointStore(checkpoints)) {
        for (int partition : new int[] {0, 1}) {
          long scn = store.read("print-orders", partition).stream().filter(Checkpoint::isWhole)
              .mapToLong(c -> c.scn().value()).max().orElse(-1);
          assertThat(scn).as("partition %d's checkpoint", partition).isEqualTo(relay.processedScn());
        }
      }
    }
  }

  /** The first ```java block of the page. */
  private static String javaBlock(String page) {
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(page);
    assertThat(block.find()).as("docs/embedding.md has a java block").isTrue();
    return block.group(1);
  }

  private static void readLines(Process program, List<String> lines) {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(program.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      lines.add("reader: " + e);
    }
  }
}
