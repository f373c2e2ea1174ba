package io.gridway.admin;

import io.gridway.policy.PolicyLoader;
import io.gridway.policy.cli.PolicyExplain;
import io.gridway.policy.cli.PolicyValidate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates a policy, or explains what it does to one row, in the browser: the policy engine's own {@code gridway
 * policy validate} and {@code explain} commands ({@link PolicyValidate}, {@link PolicyExplain}), run on the text the
 * person pasted, written to a private temporary file for the run and deleted after it. Their output is returned as
 * the CLI prints it, with the temporary file's path shown as {@code policy.yaml}.
 *
 * <p>Hash keys ({@code hash-key: {env: ...}}) are not read from the admin service's environment, which is not the
 * relays' and must not leak: each is a fixed placeholder, so hashed values in an explanation differ from the relay's.
 * Thread-safe: every run has its own command instance and file.
 */
final class PolicyTools {
  static final String PLACEHOLDER_KEY = "admin-explain-placeholder-key";

  /** @param ok the command's exit code was 0 (valid; explained) */
  record Result(boolean ok, String output) {}

  Result validate(String policy) {
    return run(policy, (file, print) -> new PolicyValidate(loader()).run(new String[] {file.toString()}, print, print));
  }

  /**
   * @param table {@code database.table}
   * @param row the row as a JSON object
   * @param op insert, update or delete
   */
  Result explain(String policy, String table, String row, String op) {
    return run(policy, (file, print) -> new PolicyExplain(loader()).run(new String[] {file.toString(), "--table", table, "--row",
        row, "--op", op}, print, print));
  }

  /**
   * A pasted policy loaded as {@code gridway cluster group create --policy} loads it (every rule checked), for a group
   * whose partition count it gives ({@link io.gridway.policy.Policy#partitionsUsed()}).
   *
   * @throws io.gridway.policy.PolicyException naming the line and what is wrong, the file shown as {@code policy.yaml}
   */
  io.gridway.policy.Policy load(String policy) throws io.gridway.policy.PolicyException {
    return loader().parse("policy.yaml", policy);
  }

  private static PolicyLoader loader() {
    return PolicyLoader.create().withEnvironment(name -> PLACEHOLDER_KEY);
  }

  /** A command run on the file, printing to {@code print} (its output and its errors, in order). */
  private interface Command {
    int run(Path file, PrintStream print);
  }

  private Result run(String policy, Command command) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("gridway-policy-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path file = Files.writeString(dir.resolve("policy.yaml"), policy);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
        int code = command.run(file, print);
        print.flush();
        return new Result(code == 0, bytes.toString(StandardCharsets.UTF_8).replace(file.toString(), "policy.yaml"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a temporary policy file: " + e.getMessage(), e);
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    try (var files = Files.list(dir)) {
      List<Path> all = new ArrayList<>(files.toList());
      for (Path f : all) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // a leftover in the temporary directory; nothing secret in it beyond what the person pasted
    }
  }
}
