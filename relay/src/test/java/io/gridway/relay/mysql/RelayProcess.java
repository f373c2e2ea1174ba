package io.gridway.relay.mysql;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code RelayMain} in a JVM of its own, to be killed abruptly ({@code destroyForcibly}, SIGKILL). */
final class RelayProcess {
  private static final Pattern LISTENING = Pattern.compile("gridway relay listening on http://[^:]+:(\\d+)");

  private final Process process;
  private final int port;

  private RelayProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static RelayProcess start(Path config, Path log) throws IOException {
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:MaxDirectMemorySize=256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), "io.gridway.relay.RelayMain", config.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    long before = Files.size(log);
    int[] port = {0};
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
      if (!process.isAlive()) {
        throw new AssertionError("relay exited with " + process.exitValue() + ": " + Files.readString(log));
      }
      String text = Files.readString(log);
      Matcher m = LISTENING.matcher(text);
      while (m.find()) {
        if (m.start() >= before - 1) {
          port[0] = Integer.parseInt(m.group(1));
        }
      }
      return port[0] != 0;
    });
    return new RelayProcess(process, port[0]);
  }

  int port() {
    return port;
  }

  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  void close() throws InterruptedException {
    kill();
  }
}
