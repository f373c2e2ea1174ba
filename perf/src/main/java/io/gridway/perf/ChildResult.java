package io.gridway.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The protocol of the harness's helper JVMs (the Debezium peer, the Phoenix limit): their output goes to a log, one
 * {@code RESULT key=value …} line carries the figures, a {@code FAILED reason} line says why there are none.
 */
final class ChildResult {
  private ChildResult() {}

  /** Copies the child's output to {@code log}; fills {@code result} from RESULT; returns the FAILED reason, if any. */
  static String pump(Process process, Path log, Map<String, String> result) throws IOException {
    String failed = null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(line);
        if (line.startsWith("RESULT ")) {
          for (String part : line.split(" ")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
              result.put(part.substring(0, eq), part.substring(eq + 1));
            }
          }
        } else if (line.startsWith("FAILED ")) {
          failed = line.substring("FAILED ".length());
        }
      }
    }
    return failed;
  }
}
