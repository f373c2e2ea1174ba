package io.gridway.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Stage 1 on one loaded binlog: R relay JVMs ({@link RelayFleet}; relay r of R serves the tables t with
 * t % R == r, so R relays each read the whole binlog and publish a third (R=3) of it, as the whitepaper's
 * rows 4–5 split tables by fetch policy), timed from the first fetcher connecting until every relay holds
 * its share; the steady window is read from the polls of the relays' published counts (the first at or
 * past the warm-up share to the last before the load was complete). Single-threaded; one instance per load.
 */
final class Stage1Run {
  private static final Duration POLL = Duration.ofMillis(50);

  private final SourceDb db;
  private final Workload workload;
  private final LoadCommand.Loaded loaded;
  private final Machine machine;
  private final Path dir;
  private final String relayHeap;
  private final double warmup;
  private double startupSeconds;
  private String quarters = "";
  private String threads = "";

  Stage1Run(RunContext context) {
    this.db = context.db();
    this.workload = context.workload();
    this.loaded = context.loaded();
    this.machine = context.machine();
    this.dir = context.dir();
    this.relayHeap = context.relayHeap();
    this.warmup = context.warmup();
  }

  /** Of the last {@link #relays} run: ev/s over each quarter of the load's events (SteadyWindow#quarters). */
  String quarters() {
    return quarters;
  }

  /**
   * Of the last {@link #relays} run with one relay: its threads' CPU over the steady window, busiest first, and
   * MariaDB's (the whole server: its binlog sender, and InnoDB's background work) beside them; empty for R &gt; 1 or
   * without a window.
   */
  String threads() {
    return threads;
  }

  /** Of the last {@link #relays} run: from starting the JVMs to the first fetcher connecting (not in its duration). */
  double startupSeconds() {
    return startupSeconds;
  }

  RunResult relays(int count) throws Exception {
    String config = count == 1 ? "single relay, all tables" : count + " relays, tables split by include lists";
    long t0 = System.nanoTime();
    startupSeconds = 0;
    quarters = "";
    threads = "";
    try (RelayFleet fleet = RelayFleet.start(db, workload, loaded.start(), dir, "relay-" + count,
        new RelayFleet.Spec(count, 1, relayHeap));
        Progress progress = new Progress("stage1 R=" + count, workload.events(), System.err)) {
      long deadline = t0 + Duration.ofSeconds(Math.max(120, workload.events() / 2_000)).toNanos();
      // the steady window's samples: every poll that every relay answered before the load was complete (the
      // completing poll is not one: the buffers were complete at some moment before it, not at it)
      List<SteadyWindow.Sample> samples = new ArrayList<>();
      long server = db.serverPid(); // found once: the window reads it at every poll
      ThreadWindow byThread = count == 1 ? new ThreadWindow(fleet.relay(0).pid(), warmup * workload.events(),
          server < 0 ? () -> -1 : () -> ProcCpu.seconds(server)) : null;
      long before = System.nanoTime();
      RelayFleet.Poll poll = fleet.poll(loaded.end());
      while (!poll.complete()) {
        if (poll.answered() && fleet.allConnected()) {
          long at = (before + System.nanoTime()) / 2;
          samples.add(new SteadyWindow.Sample(at, poll.published(), fleet.cpuNow()));
          if (byThread != null) {
            byThread.sample(at, poll.published());
          }
        }
        if (poll.invalidReason() != null) {
          return invalid(count, config, poll.published(), t0, fleet.cpuSinceConnected(), poll.invalidReason());
        }
        progress.set(poll.published());
        if (System.nanoTime() > deadline) {
          return invalid(count, config, poll.published(), t0, fleet.cpuSinceConnected(), "timed out: "
              + poll.published() + " of " + workload.events() + " events in the buffers");
        }
        Thread.sleep(POLL.toMillis()); // a harness polling a process's API, not a test waiting
        before = System.nanoTime();
        poll = fleet.poll(loaded.end());
      }
      long end = System.nanoTime();
      progress.set(poll.published());
      quarters = SteadyWindow.quarters(samples, workload.events());
      threads = byThread == null ? "" : byThread.describe("MariaDB (the whole server)");
      // the first relay's fetcher connecting: the whitepaper's "beginning timestamp"
      long first = fleet.allConnected() ? fleet.firstConnectedNanos() : t0;
      if (!fleet.allConnected()) {
        config += " (timed from JVM start: a relay logged no 'connected' line)";
      }
      double seconds = (end - first) / 1e9;
      startupSeconds = (first - t0) / 1e9;
      long published = fleet.published();
      double cpu = fleet.cpuToDone();
      if (published != workload.events()) {
        return RunResult.invalid("stage1", config, count, count, workload, published, seconds, cpu, machine.cores(),
            (published < workload.events() ? "events missing: " : "events duplicated: ") + published + " published, the load wrote "
                + workload.events());
      }
      return RunResult.valid("stage1", config, count, count, workload, published, loaded.binlogBytes(), seconds, cpu,
          machine.cores()).withSteady(SteadyWindow.of(samples, workload.events(), warmup));
    }
  }

  private RunResult invalid(int count, String config, long published, long t0, double cpu, String reason) {
    return RunResult.invalid("stage1", config, count, count, workload, published, (System.nanoTime() - t0) / 1e9, cpu,
        machine.cores(), reason);
  }
}
