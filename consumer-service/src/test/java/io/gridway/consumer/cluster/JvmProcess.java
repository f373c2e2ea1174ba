package io.gridway.consumer.cluster;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java main class in a JVM of its own with the test classpath, its output appended to a log file that is
 * kept under {@code target/} for diagnosis. It can be killed (SIGKILL), paused (SIGSTOP) and resumed (SIGCONT)
 * like a real deployment's process. Not thread-safe.
 */
final class JvmProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;
  private final long logStart;
  private volatile boolean killedByTest;

  private JvmProcess(String name, Process process, Path log, long logStart) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.logStart = logStart;
  }

  /** Starts {@code mainClass args...} and waits until its output, from now on, matches {@code ready}. */
  static JvmProcess start(String name, Path log, Pattern ready, String mainClass, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:MaxDirectMemorySize=256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
        "-Dlogback.configurationFile=io/gridway/consumer/service/logback-service.xml",
        "-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(List.of(args));
    Files.createDirectories(log.getParent());
    if (!Files.exists(log)) {
      Files.createFile(log);
    }
    long before = Files.size(log);
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    JvmProcess jvm = new JvmProcess(name, process, log, before);
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50)).until(() -> {
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited with " + process.exitValue() + ": " + jvm.output());
      }
      return ready.matcher(jvm.output()).find();
    });
    return jvm;
  }

  /** What this run wrote to the log so far. */
  String output() throws IOException {
    byte[] all = Files.readAllBytes(log);
    return new String(all, (int) Math.min(logStart, all.length), (int) Math.max(0, all.length - logStart), StandardCharsets.UTF_8);
  }

  /** The first group of the last match of {@code pattern} in this run's output, or null. */
  String lastMatch(Pattern pattern) throws IOException {
    Matcher m = pattern.matcher(output());
    String found = null;
    while (m.find()) {
      found = m.group(1);
    }
    return found;
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Whether it ended on its own (not by {@link #kill()}), as a supervisor would see it. */
  boolean exitedOnItsOwn() {
    return !process.isAlive() && !killedByTest;
  }

  Process process() {
    return process;
  }

  /** SIGKILL, and wait until it is gone: no shutdown hook runs, nothing is released. */
  void kill() throws InterruptedException {
    killedByTest = true;
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError(name + " survived SIGKILL");
    }
  }

  /** SIGSTOP: every thread stops at once, as in a long GC pause or a frozen VM. */
  void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT. */
  void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  /** SIGTERM (a graceful stop), then SIGKILL if it has not exited within 30 s. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
