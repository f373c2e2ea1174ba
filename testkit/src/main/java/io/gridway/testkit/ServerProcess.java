package io.gridway.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a native server process, with its output appended to a log file.
 *
 * <p>Its pitfall is start-up: a port picked as free can be taken before the server binds it, so
 * {@link #lostPortRace()} tells the caller to retry on another port. Thread-safe (immutable; the OS
 * process is the only state).
 */
final class ServerProcess {
  private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);
  /**
   * Runs each server in its own session, so a Ctrl-C in the terminal (SIGINT to the whole foreground process group)
   * reaches the JVM only, whose shutdown hooks then stop the servers after their clients (PostgreSQL takes SIGINT as a
   * fast shutdown). {@code setsid} execs in place (the JVM's child is no process group leader), so the pid we hold
   * stays the server's.
   */
  private static final Path SETSID = Path.of("/usr/bin/setsid");
  private final String name;
  private final Process process;
  private final Path log;
  private final long
      logOffset; // where this run's output starts: the log is appended to across restarts

  private ServerProcess(String name, Process process, Path log, long logOffset) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.logOffset = logOffset;
  }

  static ServerProcess launch(String name, List<String> command, Path workDir, Path log) {
    try {
      long logOffset = Files.exists(log) ? Files.size(log) : 0;
      List<String> inOwnSession = command;
      if (Files.isExecutable(SETSID)) {
        inOwnSession = new java.util.ArrayList<>(List.of(SETSID.toString()));
        inOwnSession.addAll(command);
      }
      Process process =
          new ProcessBuilder(inOwnSession)
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      process.getOutputStream().close(); // servers read no input
      return new ServerProcess(name, process, log, logOffset);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + name + ": " + command, e);
    }
  }

  /** Runs a set-up command (install, initdb) to completion; fails with its output if it fails. */
  static void runToCompletion(
      String name, List<String> command, Path workDir, Path log, Duration timeout) {
    long begin = System.nanoTime();
    ServerProcess run = launch(name, command, workDir, log);
    int exit;
    try {
      if (!run.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        Termination.kill(run.handle());
        throw new IllegalStateException(
            name + " did not finish in " + timeout + "\n" + LogTail.of(log));
      }
      exit = run.process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Termination.kill(run.handle());
      throw new IllegalStateException("interrupted while running " + name, e);
    }
    if (exit != 0) {
      throw new IllegalStateException(
          name + " failed with exit code " + exit + "\n" + LogTail.of(log));
    }
    LOG.info("{} done in {} ms", name, (System.nanoTime() - begin) / 1_000_000);
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  Path log() {
    return log;
  }

  /**
   * Polls {@code probe} until the server answers; fails fast, with the log tail, if the process
   * exits.
   */
  void awaitReady(Duration timeout, Poll.Probe probe) {
    Poll.until(
        name + " (pid " + process.pid() + ") did not become ready",
        timeout,
        () -> {
          if (!process.isAlive()) {
            throw new Poll.GiveUp("the process exited with code " + process.exitValue());
          }
          return probe.ready();
        },
        () -> LogTail.of(log));
  }

  /** True if the process exited because its port was taken (after {@link #awaitReady} failed). */
  boolean lostPortRace() {
    return !process.isAlive() && LogTail.since(log, logOffset).contains("Address already in use");
  }

  /** Returns true if the server exited by itself within {@code grace}. */
  boolean stopWith(Termination.Signal signal, Duration grace) {
    return Termination.stop(process.toHandle(), signal, grace);
  }

  void kill() {
    Termination.kill(process.toHandle());
  }
}
