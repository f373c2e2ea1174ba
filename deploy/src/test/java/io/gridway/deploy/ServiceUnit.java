package io.gridway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The keys of a systemd service unit's {@code [Service]} section that decide how a test runs and restarts it in place of
 * systemd (which is not PID 1 where the tests run): {@code User=}, {@code ExecStart=}, {@code Environment=}, {@code
 * EnvironmentFile=}, {@code StateDirectory=}, {@code LogsDirectory=}, {@code Restart=}, {@code RestartSec=}, {@code
 * RestartPreventExitStatus=} and {@code SuccessExitStatus=}, as systemd.service(5) and systemd.exec(5) define them, for
 * the subset the shipped units use. A key this class does not understand the value of fails loudly rather than being
 * guessed. Immutable.
 *
 * @param name the unit name, e.g. {@code gridway-consumer@1.service}
 * @param user {@code User=}
 * @param execStart {@code ExecStart=}, split on blanks, {@code %i} replaced
 * @param environment {@code Environment=} assignments in order
 * @param environmentFiles {@code EnvironmentFile=} paths; a leading {@code -} kept (optional file)
 * @param stateDirectories {@code StateDirectory=} names (under /var/lib)
 * @param logsDirectories {@code LogsDirectory=} names (under /var/log)
 * @param restart {@code Restart=} (default {@code no})
 * @param restartSec {@code RestartSec=} (default 100 ms)
 * @param preventExitStatus {@code RestartPreventExitStatus=} exit codes
 * @param successExitStatus {@code SuccessExitStatus=} exit codes
 */
record ServiceUnit(String name, String user, List<String> execStart, Map<String, String> environment,
    List<String> environmentFiles, List<String> stateDirectories, List<String> logsDirectories, String restart,
    Duration restartSec, Set<Integer> preventExitStatus, Set<Integer> successExitStatus) {

  /** SIGHUP, SIGINT, SIGTERM, SIGPIPE: the signals systemd counts as a clean exit. */
  private static final Set<Integer> CLEAN_SIGNALS = Set.of(1, 2, 15, 13);
  private static final Pattern SECONDS = Pattern.compile("(\\d+)(ms|s|sec|min|m)?");

  /** Parses {@code file}, the unit {@code name} (an instance of a template file gets its {@code %i} from the name). */
  static ServiceUnit parse(Path file, String name) throws IOException {
    String instance = name.contains("@") ? name.substring(name.indexOf('@') + 1, name.lastIndexOf('.')) : "";
    Map<String, List<String>> keys = new LinkedHashMap<>();
    String section = "";
    for (String raw : Files.readAllLines(file)) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[")) {
        section = line;
        continue;
      }
      int eq = line.indexOf('=');
      if (section.equals("[Service]") && eq > 0) {
        keys.computeIfAbsent(line.substring(0, eq).strip(), k -> new ArrayList<>())
            .add(line.substring(eq + 1).strip().replace("%i", instance));
      }
    }
    Map<String, String> environment = new LinkedHashMap<>();
    for (String assignments : keys.getOrDefault("Environment", List.of())) {
      for (String assignment : assignments.split("\\s+")) {
        int eq = assignment.indexOf('=');
        environment.put(assignment.substring(0, eq), assignment.substring(eq + 1));
      }
    }
    List<String> exec = List.of(single(keys, "ExecStart", file).split("\\s+"));
    return new ServiceUnit(name, single(keys, "User", file), exec, environment,
        keys.getOrDefault("EnvironmentFile", List.of()), words(keys, "StateDirectory"), words(keys, "LogsDirectory"),
        keys.containsKey("Restart") ? single(keys, "Restart", file) : "no",
        keys.containsKey("RestartSec") ? duration(single(keys, "RestartSec", file), file) : Duration.ofMillis(100),
        codes(keys, "RestartPreventExitStatus"), codes(keys, "SuccessExitStatus"));
  }

  /**
   * Whether systemd restarts this unit after its main process ended with {@code exitCode} as Java reports it (128 + N
   * for a process killed by signal N: a supervisor in Java cannot tell that from an exit with the same code, which the
   * units here never use).
   */
  boolean restartsAfter(int exitCode) {
    if (preventExitStatus.contains(exitCode)) {
      return false;
    }
    boolean signal = exitCode > 128 && exitCode < 128 + 65;
    boolean clean = exitCode == 0 || successExitStatus.contains(exitCode)
        || (signal && CLEAN_SIGNALS.contains(exitCode - 128));
    return switch (restart) {
      case "no" -> false;
      case "always" -> true;
      case "on-success" -> clean;
      case "on-failure" -> !clean;
      case "on-abnormal" -> signal && !clean;
      default -> throw new IllegalArgumentException(name + ": Restart=" + restart + " is not applied by this test's supervisor");
    };
  }

  private static String single(Map<String, List<String>> keys, String key, Path file) {
    List<String> values = keys.get(key);
    if (values == null || values.size() != 1) {
      throw new IllegalArgumentException(file + ": [Service] needs exactly one " + key + "=, has " + values);
    }
    return values.get(0);
  }

  private static List<String> words(Map<String, List<String>> keys, String key) {
    return keys.getOrDefault(key, List.of()).stream().flatMap(v -> Stream.of(v.split("\\s+"))).toList();
  }

  private static Set<Integer> codes(Map<String, List<String>> keys, String key) {
    return words(keys, key).stream().map(Integer::parseInt).collect(Collectors.toUnmodifiableSet());
  }

  private static Duration duration(String value, Path file) {
    Matcher m = SECONDS.matcher(value);
    if (!m.matches()) {
      throw new IllegalArgumentException(file + ": RestartSec=" + value + " is not a duration this test understands");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "min", "m" -> Duration.ofMinutes(n);
      default -> Duration.ofSeconds(n);
    };
  }
}
