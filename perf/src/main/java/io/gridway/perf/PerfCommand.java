package io.gridway.perf;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code gridway perf}: the measuring harness of DESIGN §9 and issue 8. The launcher
 * ({@code io.gridway.deploy.Gridway}) can add it as a subcommand; until then {@link #main} runs it:
 * {@code java -cp <perf classpath> io.gridway.perf.PerfCommand stage1 …}.
 *
 * <p>Exit codes: 0 when every run is valid, 3 when a run is invalid (the report says why), 1 on an
 * error, 2 on a bad command line.
 */
@Command(name = "perf", mixinStandardHelpOptions = true, subcommands = {LoadCommand.class, Stage1Command.class, Stage2Command.class, E2eCommand.class,
    LatencyCommand.class, RelayReadCommand.class, LimitsCommand.class, AllCommand.class, SnapshotCommand.class},
    description = "Load the whitepaper's workload and measure the grid's stages; reports under perf/results/.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:every run valid", "1:error", "2:bad command line", "3:a run was invalid (the report says why)"},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf all --quick", "  gridway perf all --peers --json all.json",
        "  gridway perf stage1 --relays 1,2,3 --repeat 3", "  gridway perf stage2 --consumers 1,2,3 --mode long-poll,stream",
        "  gridway perf e2e --relays 1 --consumers 1 --target postgres", "  gridway perf latency --rate 5000 --duration 60s",
        "  gridway perf load --records 4800000 --updates --hold"})
public final class PerfCommand implements Runnable {
  static final int EXIT_INVALID_RUN = 3;

  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new PerfCommand()).execute(args));
  }
}
