package io.gridway.testkit;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stops an OS process: a polite signal first, SIGKILL when it has not exited within a grace period.
 *
 * <p>Stateless and thread-safe. Waiting is interruptible: on interrupt the flag is restored and an
 * unchecked exception is thrown, since fixtures are called from test code that cannot do better.
 */
final class Termination {
  /** What a server needs to shut down cleanly; PostgreSQL wants SIGINT ("fast" shutdown). */
  enum Signal {
    TERM,
    INT
  }

  private static final Duration KILL_WAIT = Duration.ofSeconds(10);
  private static final long POLL_MILLIS = 10;

  private Termination() {}

  /**
   * Sends {@code signal}, waits up to {@code grace}, then SIGKILLs. Returns true if the process
   * exited by itself within the grace period.
   */
  static boolean stop(ProcessHandle process, Signal signal, Duration grace) {
    if (!process.isAlive()) {
      return true;
    }
    if (signal == Signal.TERM) {
      process.destroy();
    } else {
      send(process.pid(), signal);
    }
    if (awaitExit(process, grace)) {
      return true;
    }
    kill(process);
    return false;
  }

  /**
   * SIGKILLs the process and its descendants, then waits until they are gone. The descendants
   * matter for PostgreSQL: backends that outlive a killed postmaster hold its shared memory, and
   * the next start on that data directory would refuse to run.
   */
  static void kill(ProcessHandle process) {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(0, process);
    tree.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle p : tree) {
      if (!awaitExit(p, KILL_WAIT)) {
        throw new IllegalStateException(
            "process " + p.pid() + " survived SIGKILL for " + KILL_WAIT);
      }
    }
  }

  /**
   * Polls rather than using {@code onExit()}: for a process that is not our child (an orphan, a
   * PostgreSQL backend) the JDK polls with a back-off that makes a kill take seconds.
   */
  static boolean awaitExit(ProcessHandle process, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    // A child of this JVM is waited for until the JDK has reaped it: as a zombie its pid still answers kill(pid, 0),
    // and PostgreSQL restarted on the same data directory refuses to run while the pid in postmaster.pid does (the
    // reaper thread is late on a loaded machine). Another's zombie is reaped by its own parent: it has exited.
    long self = ProcessHandle.current().pid();
    boolean child = process.parent().map(p -> p.pid() == self).orElse(false);
    // isAlive() compares the start time, so a reused pid reads as exited
    while (process.isAlive() && (child || !ProcessId.isZombie(process.pid()))) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "interrupted while waiting for process " + process.pid(), e);
      }
    }
    return true;
  }

  // ProcessHandle can only send SIGTERM and SIGKILL; other signals go through kill(1).
  private static void send(long pid, Signal signal) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal.name(), Long.toString(pid))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      kill.waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill -" + signal + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling process " + pid, e);
    }
  }
}
