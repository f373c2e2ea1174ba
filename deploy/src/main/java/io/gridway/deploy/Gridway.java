package io.gridway.deploy;

import io.gridway.core.config.ConfigException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code gridway}: one command for every role ({@code relay}, {@code consumer}, {@code admin}, {@code controller}, {@code
 * cluster}, {@code policy}, {@code perf}, {@code demo}, {@code version}).
 *
 * <p>Exit codes, the same for every subcommand: {@value #OK} success (or a clean shutdown after
 * SIGTERM/SIGINT), {@value #RUNTIME_FAILURE} failure at run time, {@value #USAGE} bad command line or
 * configuration. Errors are one paragraph on standard error ({@code file:line: key: reason} for
 * configuration); {@code --verbose} adds the stack trace. {@link System#exit} is called only in {@link
 * #main}; everything else returns its code through {@link #run}. Not thread-safe: one run per call.
 */
@Command(name = "gridway", mixinStandardHelpOptions = false, usageHelpAutoWidth = true,
    description = "Gridway change-data-capture replication grid.",
    subcommands = {RelayCommand.class, ConsumerCommand.class, AdminCommand.class, ControllerCommand.class, ClusterCommand.class,
        SnapshotCommand.class, PolicyCommand.class, ParkedCommand.class, io.gridway.perf.PerfCommand.class, io.gridway.deploy.demo.DemoCommand.class,
        VersionCommand.class},
    synopsisSubcommandLabel = "COMMAND",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success, or a clean shutdown after SIGTERM/SIGINT", "1:failure at run time",
        "2:bad command line or configuration (one paragraph: file:line: key: reason)",
        "3:gridway demo only: source and target differ at the end of --duration"},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway demo --duration 60s          # the whole grid on this machine, then source = target?",
        "  gridway relay --config conf/relay.yaml", "  gridway consumer --config conf/consumer.yaml",
        "  gridway admin --config conf/admin.yaml         # controller + web UI on http://127.0.0.1:8480/",
        "  gridway controller --config conf/controller.yaml", "  gridway cluster status --config conf/controller.yaml --json",
        "  gridway snapshot --group orders --tables shop.orders --config conf/controller.yaml",
        "  gridway policy validate conf/policy.yaml", "  gridway perf stage1 --quick",
        "  gridway <command> --help"})
public final class Gridway implements Runnable {
  /** Success, or a clean shutdown. */
  public static final int OK = 0;
  /** Failure at run time. */
  public static final int RUNTIME_FAILURE = 1;
  /** Bad command line or configuration. */
  public static final int USAGE = 2;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print stack traces with errors.")
  boolean verbose;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The streams of this run, for commands that take a {@link PrintStream} (the policy engine's). */
  final PrintStream out;
  final PrintStream err;

  private final InputStream in;

  private Gridway(InputStream in, PrintStream out, PrintStream err) {
    this.in = in;
    this.out = out;
    this.err = err;
  }

  /** Standard input for interactive commands (Enter ends {@code gridway demo}); empty when run in-process. */
  public InputStream in() {
    return in;
  }

  public static void main(String[] args) {
    StderrStatusListener.installUnlessSet(); // before the first logger: logback's status must not reach stdout
    System.exit(run(args, System.in, System.out, System.err));
  }

  /**
   * Runs a command line with no standard input (in-process callers such as tests: a test JVM's own standard input
   * may be its runner's channel); returns the exit code (never exits the JVM).
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, InputStream.nullInputStream(), out, err);
  }

  /** Runs a command line; returns the exit code (never exits the JVM). */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    CommandLine cli = new CommandLine(new Gridway(in, out, err));
    PrintWriter errWriter = new PrintWriter(err, true);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(errWriter);
    cli.setParameterExceptionHandler((e, a) -> usageError(e, errWriter));
    cli.setExecutionExceptionHandler((e, line, parsed) -> failure(e, line, parsed, errWriter));
    setVersion(cli);
    return cli.execute(args);
  }

  /** -V/--version on every command prints what {@code gridway version} prints first. */
  private static void setVersion(CommandLine cli) {
    cli.getCommandSpec().versionProvider(() -> new String[] {"gridway " + VersionCommand.version()});
    cli.getSubcommands().values().forEach(Gridway::setVersion);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a command is required: one of "
        + String.join(", ", spec.subcommands().keySet()));
  }

  private static int usageError(ParameterException error, PrintWriter err) {
    CommandLine line = error.getCommandLine();
    ParameterException e = error;
    if (!(e instanceof UnmatchedArgumentException) && !line.getUnmatchedArguments().isEmpty()) {
      // A misspelt option also leaves its real one missing; name the misspelling, it is the cause.
      e = new UnmatchedArgumentException(line, line.getUnmatchedArguments());
    }
    StringBuilder text = new StringBuilder(line.getCommandSpec().qualifiedName()).append(": ").append(e.getMessage());
    if (e instanceof UnmatchedArgumentException unmatched) {
      List<String> suggestions = unmatched.getSuggestions();
      if (!suggestions.isEmpty()) {
        text.append(" (did you mean ").append(String.join(" or ", suggestions)).append("?)");
      }
    }
    text.append(". See '").append(line.getCommandSpec().qualifiedName()).append(" --help'.");
    err.println(text);
    return USAGE;
  }

  private static int failure(Exception e, CommandLine line, CommandLine.ParseResult parsed, PrintWriter err) {
    String name = line.getCommandSpec().qualifiedName();
    boolean verbose = parsed.hasMatchedOption("--verbose") || hasVerbose(parsed);
    int code;
    if (e instanceof ConfigException) {
      err.println(name + ": configuration error: " + e.getMessage());
      code = USAGE;
    } else if (e instanceof UsageException) {
      err.println(name + ": " + e.getMessage());
      code = USAGE;
    } else {
      err.println(name + ": failed: " + (e.getMessage() == null ? e.toString() : e.getMessage())
          + (verbose ? "" : " (--verbose prints the stack trace)"));
      code = RUNTIME_FAILURE;
    }
    if (verbose) {
      e.printStackTrace(err);
    }
    return code;
  }

  private static boolean hasVerbose(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }
}
