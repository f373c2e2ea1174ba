package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starting and stopping the grid's processes of a perf run: {@code java -Xmx… -cp <this JVM's
 * classpath> <main> <args>}, output and errors merged (the caller pumps them into a log). The one place
 * that knows how a relay or consumer JVM is launched.
 */
final class Jvm {
  private Jvm() {}

  static Process start(String heap, String mainClass, List<String> args) throws IOException {
    return start(heap, List.of(), mainClass, args);
  }

  /** With JVM options before the class path (a consumer's add-on location and opens). */
  static Process start(String heap, List<String> jvmOptions, String mainClass, List<String> args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "-XX:MaxDirectMemorySize=16g"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(args);
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** SIGTERM, then SIGKILL after 15 s. */
  static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt(); // the caller sees the interrupt
    }
  }
}
