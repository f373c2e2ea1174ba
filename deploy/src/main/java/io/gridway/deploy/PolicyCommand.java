package io.gridway.deploy;

import io.gridway.policy.cli.PolicyExplain;
import io.gridway.policy.cli.PolicyValidate;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code gridway policy validate|explain}: the policy engine's own commands ({@link PolicyValidate}, {@link
 * PolicyExplain}); their arguments, help and exit codes (0, or 2 for an invalid policy or usage) pass through.
 */
@Command(name = "policy", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = "Check policy files, or show what a policy does to one row.",
    subcommands = {PolicyCommand.Validate.class, PolicyCommand.Explain.class},
    synopsisSubcommandLabel = "(validate | explain)",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway policy validate conf/policy.yaml",
        "  gridway policy explain conf/policy.yaml --table shop.orders --row '{\"id\":1,\"status\":\"PAID\"}'"})
final class PolicyCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required: validate or explain");
  }

  /** Runs a policy-engine command with the launcher's streams, then the examples after its help. */
  abstract static class Delegate implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Passed on (see --help).")
    List<String> args = new ArrayList<>();

    @Unmatched List<String> unmatched = new ArrayList<>();

    @Spec CommandSpec spec;

    abstract int delegate(String[] arguments, PrintStream out, PrintStream err);

    abstract String example();

    @Override
    public Integer call() {
      List<String> all = new ArrayList<>(unmatched);
      all.addAll(args);
      Gridway root = (Gridway) spec.root().userObject();
      PrintStream out = root.out;
      PrintStream err = root.err;
      int code = delegate(all.toArray(String[]::new), out, err);
      out.flush();
      err.flush();
      if (all.contains("--help") || all.contains("-h")) {
        spec.commandLine().getOut().printf("%nExamples:%n  %s%n", example());
      }
      return code;
    }

  }

  @Command(name = "validate", description = "Check policy files (the policy engine's 'validate'; --help shows its options).")
  static final class Validate extends Delegate {
    @Override
    int delegate(String[] arguments, PrintStream out, PrintStream err) {
      return new PolicyValidate().run(arguments, out, err);
    }

    @Override
    String example() {
      return "gridway policy validate /etc/gridway/policy.yaml";
    }
  }

  @Command(name = "explain", description = "Show what a policy does to one row (the policy engine's 'explain'; --help shows its options).")
  static final class Explain extends Delegate {
    @Override
    int delegate(String[] arguments, PrintStream out, PrintStream err) {
      return new PolicyExplain().run(arguments, out, err);
    }

    @Override
    String example() {
      return "gridway policy explain policy.yaml --table shop.orders --row '{\"id\":1,\"status\":\"PAID\"}'";
    }
  }
}
