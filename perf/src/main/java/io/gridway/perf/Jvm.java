package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starting and stopping the grid's processes of a perf run: {@code java -Xms… -Xmx… <GC flags> -cp <this JVM's
 * classpath> <main> <args>}, output and errors merged (the caller pumps them into a log). The one place
 * that knows how a relay or consumer JVM is launched.
 *
 * <p>The heap is fixed ({@code -Xms} = {@code -Xmx}) and the collector is {@link #LAUNCHER_GC}, as {@code bin/gridway}
 * starts every role, so that a benchmark measures the processes operators run. With only {@code -Xmx} a relay began
 * on a small heap that G1 grew under the load, and its CPU per event moved between 1.37 and 2.19 µs from run to run
 * (perf/RESULTS.md, "Stage 1: what bounds it here").
 */
final class Jvm {
  /** The collector flags of {@code bin/gridway}'s default ({@code GRIDWAY_GC=G1}); JvmFlagsTest holds the two together. */
  static final List<String> LAUNCHER_GC = List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=50");

  private Jvm() {}

  static Process start(String heap, String mainClass, List<String> args) throws IOException {
    return start(heap, List.of(), mainClass, args);
  }

  /** With JVM options before the class path (a consumer's add-on location and opens). */
  static Process start(String heap, List<String> jvmOptions, String mainClass, List<String> args) throws IOException {
    return new ProcessBuilder(command(heap, jvmOptions, mainClass, args)).redirectErrorStream(true).start();
  }

  static List<String> command(String heap, List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xms" + heap, "-Xmx" + heap, "-XX:MaxDirectMemorySize=16g"));
    command.addAll(LAUNCHER_GC);
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(args);
    return command;
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
