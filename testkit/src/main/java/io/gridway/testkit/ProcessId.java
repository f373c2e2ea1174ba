package io.gridway.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * A process named by its pid <em>and</em> its start time, so that a pid reused by an unrelated
 * process is never mistaken for the one we recorded (and never killed by the orphan reaper).
 *
 * <p>{@code startMillis} is {@value #UNKNOWN_START} when the OS did not report a start time; then
 * only the pid is compared. Immutable.
 */
record ProcessId(long pid, long startMillis) {
  static final long UNKNOWN_START = -1;

  static ProcessId of(ProcessHandle handle) {
    return new ProcessId(
        handle.pid(),
        handle.info().startInstant().map(Instant::toEpochMilli).orElse(UNKNOWN_START));
  }

  static ProcessId current() {
    return of(ProcessHandle.current());
  }

  /** The live process this id names, if it still runs; a zombie counts as gone. */
  Optional<ProcessHandle> live() {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(h -> startMillis == UNKNOWN_START || startMillis == ProcessId.of(h).startMillis())
        .filter(h -> !isZombie(pid));
  }

  /**
   * Java reports a zombie (exited, not yet reaped by its parent) as alive; an orphan whose new
   * parent is slow to reap would then look like it survived SIGKILL.
   */
  static boolean isZombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int afterName = stat.lastIndexOf(')'); // the command name may itself contain spaces or ')'
      return afterName > 0 && afterName + 2 < stat.length() && stat.charAt(afterName + 2) == 'Z';
    } catch (IOException e) {
      return false; // no /proc (or the process just vanished): trust ProcessHandle
    }
  }
}
