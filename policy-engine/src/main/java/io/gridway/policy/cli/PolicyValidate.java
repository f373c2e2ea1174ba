package io.gridway.policy.cli;

import io.gridway.policy.Policy;
import io.gridway.policy.PolicyError;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code gridway policy validate FILE…}: loads each policy as the relay would and reports.
 *
 * <p>Exit codes: 0 when every file is valid (one summary line per policy on {@code out}); 2 when
 * any is not (every error as {@code file:line:column: rule: reason} on {@code err}, the valid
 * files' summaries still on {@code out}), and for usage errors. Not thread-safe: one run per
 * instance.
 */
@Command(name = "validate", description = "Check policy files; print a summary of each valid one and every error of the others.",
    mixinStandardHelpOptions = true)
public final class PolicyValidate implements Callable<Integer> {
  /** Every file valid. */
  public static final int OK = 0;
  /** A policy is invalid, or the arguments are. */
  public static final int INVALID = 2;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Policy files (YAML).")
  private List<Path> files = new ArrayList<>();

  private final PolicyLoader loader;
  private PrintStream out;
  private PrintStream err;

  /** Validates with hash keys from the process environment and no known schemas. */
  public PolicyValidate() {
    this(PolicyLoader.create());
  }

  /** Validates with a configured loader (known schemas, an environment). */
  public PolicyValidate(PolicyLoader loader) {
    this.loader = loader;
  }

  /** Runs the command; returns its exit code. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
    return CliRun.execute(this, args, out, err, INVALID);
  }

  @Override
  public Integer call() {
    int errors = 0;
    int invalidFiles = 0;
    Map<String, String> names = new HashMap<>();
    for (Path file : files) {
      try {
        Policy policy = loader.load(file);
        String first = names.putIfAbsent(policy.name(), file.toString());
        if (first != null) {
          err.println(file + ": name: policy name '" + policy.name() + "' is also used by " + first);
          errors++;
          invalidFiles++;
          continue;
        }
        out.println(file + ": OK " + policy.summary());
      } catch (PolicyException e) {
        for (PolicyError error : e.errors()) {
          err.println(error);
        }
        errors += e.errors().size();
        invalidFiles++;
      }
    }
    if (errors > 0) {
      err.println(errors + (errors == 1 ? " error" : " errors") + " in " + invalidFiles + (invalidFiles == 1 ? " file" : " files"));
      return INVALID;
    }
    return OK;
  }
}
