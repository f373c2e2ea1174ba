package io.gridway.perf;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Apply − commit per row (issue 24 item 3 asks for p99 apply − commit): the consumer's trace of every measured row's
 * (id, apply − send µs) joined with the paced writer's own insert + commit round trip of the same row, so the latency
 * the grid adds after the source's commit returned is told apart from the source's share. The commit returns to the
 * writer a little after the binlog holds the row, so apply − commit is, if anything, a little low (by the server's
 * reply). Stateless.
 */
final class LatencyTrace {
  /**
   * @param rows rows of the trace joined with a round trip
   * @param afterCommitMs apply − (send + round trip): what the grid adds after the commit
   * @param max the largest apply − commit, ms
   */
  record Joined(long rows, PacedWriter.Spread afterCommitMs, double max) {}

  private LatencyTrace() {}

  /**
   * Reads {@code file} (pairs of longs) and subtracts {@code roundTripMicros[id − firstId]} from each latency; rows
   * outside the writer's range are skipped. Null when the trace is missing or the writer kept no round trips.
   */
  static Joined join(Path file, long firstId, int[] roundTripMicros) throws IOException {
    if (roundTripMicros == null || !Files.exists(file)) {
      return null;
    }
    LatencyHistogram after = new LatencyHistogram();
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      while (true) {
        long id;
        long latency;
        try {
          id = in.readLong();
          latency = in.readLong();
        } catch (EOFException e) {
          break;
        }
        long k = id - firstId;
        if (k >= 0 && k < roundTripMicros.length) {
          after.record(latency - roundTripMicros[(int) k]);
        }
      }
    }
    return new Joined(after.count(), PacedWriter.Spread.of(after), after.max() / 1e3);
  }
}
