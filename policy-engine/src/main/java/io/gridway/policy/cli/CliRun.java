package io.gridway.policy.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;

/** How the policy commands run standalone: picocli on the given streams, every error mapped to one exit code. */
final class CliRun {
  private CliRun() {}

  static int execute(Object command, String[] args, PrintStream out, PrintStream err, int invalid) {
    CommandLine cli = new CommandLine(command);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setExitCodeExceptionMapper(e -> invalid);
    cli.getCommandSpec().exitCodeOnInvalidInput(invalid);
    return cli.execute(args);
  }
}
