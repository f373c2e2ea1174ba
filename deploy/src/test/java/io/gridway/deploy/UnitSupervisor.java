package io.gridway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What systemd does for one {@link ServiceUnit}, for a test on a machine where systemd is not PID 1: creates its state
 * and logs directories, runs {@code ExecStart} with systemd's clean environment plus {@code Environment=} and {@code
 * EnvironmentFile=} (files override, a leading {@code -} makes a file optional), its output appended to a journal file,
 * and when the process ends, restarts it after {@code RestartSec} if {@link ServiceUnit#restartsAfter} says so. Runs
 * units only as the user running the test: it does not switch users.
 *
 * <p>Thread-safe: exits are handled on the process's exit thread, restarts on {@code timer}.
 */
final class UnitSupervisor {
  /** systemd's PATH for services (systemd.exec(5), "Environment variables in spawned processes"). */
  static final String SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin";

  private final ServiceUnit unit;
  private final Path root;
  private final Path journal;
  private final ScheduledExecutorService timer;
  private final List<Integer> exits = new ArrayList<>(); // guarded by this
  private Process process; // guarded by this
  private int starts; // guarded by this
  private boolean stopping; // guarded by this

  /**
   * @param root where {@code /var/lib} and {@code /var/log} are for {@code StateDirectory=} and {@code LogsDirectory=}
   */
  UnitSupervisor(ServiceUnit unit, Path root, Path journal, ScheduledExecutorService timer) {
    this.unit = unit;
    this.root = root;
    this.journal = journal;
    this.timer = timer;
    String me = System.getProperty("user.name");
    if (!unit.user().equals(me)) {
      throw new IllegalArgumentException(unit.name() + " has User=" + unit.user() + "; this supervisor runs units only as "
          + "the user running the test (" + me + "): rewrite User= in the test's copy of the unit");
    }
  }

  /** Starts the unit's process (systemctl start). */
  synchronized void start() throws IOException {
    for (String dir : unit.stateDirectories()) {
      Files.createDirectories(root.resolve("var/lib").resolve(dir));
    }
    for (String dir : unit.logsDirectories()) {
      Files.createDirectories(root.resolve("var/log").resolve(dir));
    }
    ProcessBuilder builder = new ProcessBuilder(unit.execStart()).redirectErrorStream(true)
        .redirectOutput(Redirect.appendTo(journal.toFile()));
    builder.environment().clear();
    builder.environment().putAll(environment());
    note("starting " + String.join(" ", unit.execStart()));
    Process p = builder.start();
    process = p;
    starts++;
    p.onExit().thenAccept(ended -> exited(ended, ended.exitValue()));
  }

  private Map<String, String> environment() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", SYSTEMD_PATH);
    env.put("HOME", System.getProperty("user.home"));
    env.put("USER", unit.user());
    env.put("LOGNAME", unit.user());
    env.putAll(unit.environment());
    for (String entry : unit.environmentFiles()) {
      boolean optional = entry.startsWith("-");
      Path file = Path.of(optional ? entry.substring(1) : entry);
      if (!Files.exists(file)) {
        if (optional) {
          continue;
        }
        throw new IOException(unit.name() + ": EnvironmentFile=" + file + " does not exist (systemd would not start it)");
      }
      for (String line : Files.readAllLines(file)) {
        String l = line.strip();
        int eq = l.indexOf('=');
        if (!l.isEmpty() && !l.startsWith("#") && !l.startsWith(";") && eq > 0) {
          env.put(l.substring(0, eq).strip(), unquote(l.substring(eq + 1).strip()));
        }
      }
    }
    return env;
  }

  private static String unquote(String value) {
    boolean quoted = value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
        || value.startsWith("'") && value.endsWith("'"));
    return quoted ? value.substring(1, value.length() - 1) : value;
  }

  private void exited(Process ended, int code) {
    boolean restart;
    synchronized (this) {
      if (ended != process) {
        return;
      }
      exits.add(code);
      restart = !stopping && unit.restartsAfter(code);
      note("main process exited, code " + code + (restart ? "; scheduling restart in " + unit.restartSec().toMillis()
          + " ms (Restart=" + unit.restart() + ")" : stopping ? "; stopped" : "; not restarted (Restart=" + unit.restart()
          + ", RestartPreventExitStatus=" + unit.preventExitStatus() + ", SuccessExitStatus=" + unit.successExitStatus() + ")"));
    }
    if (restart) {
      timer.schedule(() -> {
        try {
          synchronized (this) {
            if (!stopping) {
              start();
            }
          }
        } catch (IOException e) {
          note("restart failed: " + e);
        }
      }, unit.restartSec().toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** SIGKILL to the main process (systemctl kill -s KILL). */
  synchronized long kill9() {
    long pid = process.pid();
    process.destroyForcibly(); // SIGKILL on Linux
    note("sent SIGKILL to " + pid);
    return pid;
  }

  /** SIGTERM, then waits up to {@code seconds} (systemctl stop); returns the exit code, or -1 if it did not stop. */
  int stop(long seconds) throws InterruptedException {
    Process p;
    synchronized (this) {
      stopping = true;
      p = process;
    }
    if (p == null) {
      return -1;
    }
    p.destroy();
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  synchronized long pid() {
    return process.pid();
  }

  synchronized int starts() {
    return starts;
  }

  synchronized List<Integer> exits() {
    return List.copyOf(exits);
  }

  ServiceUnit unit() {
    return unit;
  }

  /** The unit's journal: its process output and this supervisor's lines. */
  String journal() {
    try {
      return Files.exists(journal) ? Files.readString(journal) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void note(String what) {
    try {
      Files.writeString(journal, Instant.now() + " supervisor: " + unit.name() + ": " + what + "\n", StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
