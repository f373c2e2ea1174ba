package io.gridway.perf;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf all}: the standard matrix on one load, one combined report — limits (raw binlog,
 * loopback; with {@code --peers} Debezium), relay-read with 1 and 3 readers, stage 1 R = 1, 2, 3, stage 2
 * C = 1, 2, 3, end-to-end R=1,C=1 and R=3,C=3 to the null applier and R=1,C=1 to PostgreSQL (after its bulk-load
 * limit, {@link TargetLimit}), the writer's limit and latency in
 * long-poll and stream mode. {@code --quick} runs it on 48,000 records with a 10 s latency run.
 */
@Command(name = "all", mixinStandardHelpOptions = true,
    description = "The standard matrix (limits, relay-read, stage 1, stage 2, e2e, latency) on one load, one report.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf all --quick", "  gridway perf all --peers", "  gridway perf all --records 4800000 --peers",
        "  gridway perf all --quick --relays 1 --consumers 1 --targets none --duration 2s   (the CI smoke run)"})
final class AllCommand implements Callable<Integer> {
  static final long QUICK_RECORDS = 48_000;

  @Mixin PerfOptions options;
  @Mixin GridOptions grid;
  @Mixin LatencyOptions latency;
  @Mixin PhoenixOptions phoenix;

  @Option(names = "--peers", description = "also read the binlog with the Debezium embedded engine")
  boolean peers;

  @Option(names = "--targets", split = ",", defaultValue = "postgres",
      description = "real targets of the e2e R=1,C=1 run: postgres, mariadb, phoenix (only when named: an HBase mini cluster,"
          + " per --lanes), or none (default ${DEFAULT-VALUE})")
  List<String> targets;

  @Option(names = "--readers", split = ",", defaultValue = "1,3", description = "relay-read reader counts (default ${DEFAULT-VALUE})")
  List<Integer> readers;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    if (options.records == null && options.quick) {
      options.records = QUICK_RECORDS;
    }
    if (options.quick && latency.duration.equals(Duration.ofSeconds(60))) {
      latency.duration = Duration.ofSeconds(10);
    }
    latency.warmUp = latency.warmUp(options.quick);
    List<String> realTargets = targets.stream().filter(t -> !t.equals("none")).toList();
    for (String t : realTargets) {
      if (!t.equals("postgres") && !t.equals("mariadb") && !t.equals("phoenix")) {
        throw new IllegalArgumentException("--targets: postgres, mariadb, phoenix or none, not " + t);
      }
    }
    phoenix.validate();
    String command = "gridway perf all" + (options.quick ? " --quick" : "") + (peers ? " --peers" : "") + " --relays " + GridOptions.join(relays())
        + " --consumers " + GridOptions.join(consumers())
        + " --targets " + GridOptions.join(targets) + " --rate " + (long) latency.rate + " --latency-warmup "
        + latency.warmUp.toSeconds() + "s --duration "
        + latency.duration.toSeconds() + "s";
    return Session.run(options, grid, command, (context, report) -> {
      for (int repetition = 1; repetition <= options.repeat; repetition++) {
        measure(context, realTargets, report);
      }
      report.note(LimitsCommand.NOTE);
      report.note(RelayReadCommand.NOTE);
      report.note(Stage1Command.NOTE);
      report.note(Stage2Command.NOTE);
      report.note(E2eCommand.NOTE);
      if (realTargets.contains("postgres") || realTargets.contains("mariadb")) {
        report.note(TargetLimit.NOTE);
      }
      if (realTargets.contains("phoenix")) {
        report.note(PhoenixBench.NOTE);
      }
      noteTargets(report);
    });
  }

  private List<Integer> relays() {
    return grid.relaysOr(1, 2, 3);
  }

  private List<Integer> consumers() {
    return grid.consumersOr(1, 2, 3);
  }

  private void measure(RunContext context, List<String> realTargets, Report report) throws Exception {
    Limits limits = new Limits(context);
    RunResult binlog = Session.attempt(context, "limit-binlog", limits::binlog);
    report.add(binlog);
    RunResult loopback = Session.attempt(context, "limit-loopback", limits::loopback);
    report.add(loopback);
    if (peers) {
      Session.addWithRatio(report, Session.attempt(context, "peer-debezium", new DebeziumPeer(context)::run), binlog);
    }
    Stage1Run stage1 = new Stage1Run(context);
    for (int r : relays()) {
      Session.addWithRatio(report, Session.attempt(context, "stage1", () -> stage1.relays(r)), binlog);
      Stage1Command.noteThreads(report, r, stage1);
    }
    try (Stage2Run stage2 = new Stage2Run(context)) {
      String problem = stage2.preload();
      if (problem != null) {
        report.add(RunResult.invalid("stage2", "preloading the relay", 1, 1, context.workload(), 0, 0, 0,
            context.machine().cores(), problem));
      } else {
        RelayReadCommand.measureWith(context, stage2.relay(), readers, List.of("header"), loopback, report);
        for (int c : consumers()) {
          Session.addWithRatio(report, Session.attempt(context, "stage2", () -> stage2.consumers(c, "long-poll")), loopback);
        }
      }
    }
    E2eRun e2e = new E2eRun(context);
    Session.addWithRatio(report, Session.attempt(context, "e2e", () -> e2e.run(1, 1, "long-poll", null)), binlog);
    int widest = Math.max(relays().stream().max(Integer::compare).orElse(1), consumers().stream().max(Integer::compare).orElse(1));
    if (widest > 1 && relays().contains(widest) && consumers().contains(widest)) {
      Session.addWithRatio(report, Session.attempt(context, "e2e", () -> e2e.run(widest, widest, "long-poll", null)), binlog);
    }
    try (TargetLimit targetLimit = new TargetLimit(context)) {
      for (String t : realTargets) {
        if (t.equals("phoenix")) {
          try (PhoenixBench bench = new PhoenixBench(context, phoenix)) {
            bench.measure(report, binlog, "long-poll", !realTargets.contains("postgres"));
          }
          continue;
        }
        measureTarget(context, e2e, targetLimit, t, binlog, report);
      }
    }
    GridOptions latencyModes = new GridOptions();
    latencyModes.modes = grid.modesOr("long-poll", "stream");
    LatencyCommand.measure(context, latencyModes, latency, null, 1, report);
  }

  /** The target's bulk-load limit, then e2e R=1,C=1 into it with its ratio to both limits; one server for both. */
  private static void measureTarget(RunContext context, E2eRun e2e, TargetLimit targetLimit, String kind, RunResult binlog,
      Report report) throws InterruptedException {
    JdbcTarget target;
    try {
      target = JdbcTarget.start(kind, context.db().database(), context.workload());
    } catch (Exception e) {
      System.err.println("target " + kind + ": " + e);
      report.add(RunResult.invalid("e2e", "(did not run)", 0, 0, context.workload(), 0, 0, 0, context.machine().cores(),
          "the " + kind + " target did not start: " + e).withConsumers(1, kind));
      return;
    }
    try (target) {
      RunResult limit = targetLimit.measure(target);
      report.add(limit);
      RunResult run = Session.attempt(context, "e2e", () -> e2e.run(1, 1, "long-poll", target));
      Session.addWithRatio(report, Session.withTargetRatio(run, limit), binlog);
    } catch (IOException e) {
      System.err.println("target " + kind + ": closing: " + e); // the runs are measured; a server that does not stop is not theirs
    }
  }

  /** The acceptance comparisons of issue 8, as notes: targets reached or not, and stage 1 against the peer. */
  private static void noteTargets(Report report) {
    List<String> lines = new ArrayList<>();
    for (RunResult r : report.runs()) {
      if (!r.valid()) {
        continue;
      }
      if (r.stage().equals("stage1") && r.relays() == 1) {
        lines.add(check("stage 1 R=1", r.eventsPerSec(), 60_000));
      } else if (r.stage().equals("stage2") && r.consumers() == 1) {
        lines.add(check("stage 2 C=1", r.eventsPerSec(), 150_000));
      } else if (r.stage().equals("e2e") && r.relays() == 1 && r.consumers() == 1 && r.target().equals("null")) {
        lines.add(check("end-to-end R=1,C=1 to the null applier", r.eventsPerSec(), 50_000));
      }
    }
    RunResult peer = report.runs().stream().filter(r -> r.valid() && r.stage().equals("peer-debezium")).findFirst().orElse(null);
    RunResult stage1 = report.runs().stream().filter(r -> r.valid() && r.stage().equals("stage1") && r.relays() == 1)
        .findFirst().orElse(null);
    if (peer != null && stage1 != null) {
      double ratio = stage1.eventsPerSec() / peer.eventsPerSec();
      lines.add(String.format(Locale.ROOT, "stage 1 R=1 is %.1f× the Debezium embedded engine on the same binlog in the same"
          + " run (target ≥ 3×: %s).", ratio, ratio >= 3 ? "met" : "missed"));
    }
    if (!lines.isEmpty()) {
      report.note("Issue 8's targets on this machine: " + String.join(" ", lines));
    }
  }

  private static String check(String what, double rate, double target) {
    return String.format(Locale.ROOT, "%s %,.0f ev/s (target ≥ %,.0f: %s).", what, rate, target, rate >= target ? "met" : "missed");
  }
}
