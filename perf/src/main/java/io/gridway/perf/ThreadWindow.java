package io.gridway.perf;

import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * A process's CPU by thread ({@link ThreadCpu}) over a run's steady window, taken at the same polls as the window's
 * samples and by the same rule ({@link SteadyWindow#of}: from the first poll at or past the warm-up mark to the last
 * poll before the run was complete), with the source server's CPU beside it. Single-threaded.
 */
final class ThreadWindow {
  private final long pid;
  private final double mark;
  private final DoubleSupplier serverCpu;
  private Reading start;
  private Reading end;

  private record Reading(long nanos, long events, Map<Long, ThreadCpu.Task> threads, double server) {}

  /**
   * @param pid the measured process
   * @param mark the events after which the window starts
   * @param serverCpu the source server's CPU seconds now, or a negative number when not known
   */
  ThreadWindow(long pid, double mark, DoubleSupplier serverCpu) {
    this.pid = pid;
    this.mark = mark;
    this.serverCpu = serverCpu;
  }

  /** A poll that is one of the window's samples: {@code events} done at {@code nanos}. */
  void sample(long nanos, long events) {
    if (events < mark) {
      return;
    }
    Reading now = new Reading(nanos, events, ThreadCpu.of(pid), serverCpu.getAsDouble());
    if (start == null) {
      start = now;
    } else {
      end = now;
    }
  }

  /** "reader 0.53 vCPU (0.65 µs per event), …; the source server 0.45 vCPU (…)", or empty without a window. */
  String describe(String serverName) {
    if (start == null || end == null || end.nanos() <= start.nanos() || end.events() <= start.events()) {
      return "";
    }
    double seconds = (end.nanos() - start.nanos()) / 1e9;
    long events = end.events() - start.events();
    String threads = ThreadCpu.between(start.threads(), end.threads(), seconds, events, 4);
    if (start.server() < 0 || end.server() < 0) {
      return threads;
    }
    String server = ThreadCpu.share(serverName, end.server() - start.server(), seconds, events);
    return threads.isEmpty() ? server : threads + "; " + server;
  }
}
