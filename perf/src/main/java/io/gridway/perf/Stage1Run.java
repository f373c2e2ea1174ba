package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Stage 1 on one loaded binlog: the raw limit and relay runs. Relay r of R serves the tables t with
 * t % R == r (an include list), so R relays each read the whole binlog and publish a third (R=3) of it,
 * as the whitepaper's rows 4–5 split tables by fetch policy. Single-threaded; one instance per load.
 */
final class Stage1Run {
  private static final Duration POLL = Duration.ofMillis(50);

  private final SourceDb db;
  private final Workload workload;
  private final LoadCommand.Loaded loaded;
  private final Machine machine;
  private final Path dir;
  private final String relayHeap;
  private double startupSeconds;

  Stage1Run(SourceDb db, Workload workload, LoadCommand.Loaded loaded, Machine machine, Path dir, String relayHeap) {
    this.db = db;
    this.workload = workload;
    this.loaded = loaded;
    this.machine = machine;
    this.dir = dir;
    this.relayHeap = relayHeap;
  }

  /** Of the last {@link #relays} run: from starting the JVMs to the first fetcher connecting (not in its duration). */
  double startupSeconds() {
    return startupSeconds;
  }

  /** One untimed pass (JIT, page cache), then the timed one: the limit must not be handicapped by going first. */
  RunResult rawLimit() throws IOException {
    new RawBinlogReader(db).read(loaded.start(), loaded.end(), 7300);
    RawBinlogReader.Read read = new RawBinlogReader(db).read(loaded.start(), loaded.end(), 7301);
    String config = "bare BinaryLogClient, stock deserializer (raw limit)";
    if (read.rows() != workload.events()) {
      return RunResult.invalid("limit-binlog", config, 1, 0, workload, read.rows(), read.seconds(), read.cpuSeconds(),
          machine.cores(), "read " + read.rows() + " row events, the load wrote " + workload.events());
    }
    return RunResult.valid("limit-binlog", config, 1, 0, workload, read.rows(), loaded.binlogBytes(), read.seconds(),
        read.cpuSeconds(), machine.cores());
  }

  RunResult relays(int count) throws Exception {
    Files.createDirectories(dir);
    // owner-only, outside the results directory, deleted when the relays are gone (a --source password)
    Path password = Files.createTempFile("gridway-perf-", ".pw",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(password, db.replicationPassword());
    String config = count == 1 ? "single relay, all tables" : count + " relays, tables split by include lists";
    long capacityMiB = bufferMiB(count);
    List<RelayProcess> processes = new ArrayList<>();
    long[] expected = new long[count];
    double[] cpu = new double[count];
    boolean[] done = new boolean[count];
    long t0 = System.nanoTime();
    startupSeconds = 0;
    try (Progress progress = new Progress("stage1 R=" + count, workload.events(), System.err)) {
      for (int r = 0; r < count; r++) {
        List<String> include = new ArrayList<>();
        for (int t = r; t < workload.tables(); t += count) {
          include.add("'" + db.database() + "." + Workload.tableName(t) + "'");
          expected[r] += workload.eventsOf(t);
        }
        Path yaml = dir.resolve("relay-" + count + "-" + r + ".yaml");
        Files.writeString(yaml, relayYaml(r, include, password, capacityMiB));
        processes.add(RelayProcess.start(yaml, dir.resolve("relay-" + count + "-" + r + ".log"), relayHeap));
      }
      for (RelayProcess p : processes) {
        p.await(Duration.ofSeconds(60));
      }
      long deadline = t0 + Duration.ofSeconds(Math.max(120, workload.events() / 2_000)).toNanos();
      long published = 0;
      int remaining = count;
      while (remaining > 0) {
        published = 0;
        for (int r = 0; r < count; r++) {
          RelayProcess p = processes.get(r);
          if (!p.isAlive()) {
            return invalid(count, config, published, t0, cpu, "relay " + r + " exited with " + p.exitCode() + " (log "
                + p.log() + ")");
          }
          RelayProcess.Status s = p.status();
          published += s.eventsPublished();
          if (s.windowsEvicted() > 0) {
            return invalid(count, config, published, t0, cpu, "relay " + r + " evicted " + s.windowsEvicted()
                + " windows: its buffer (" + capacityMiB + " MiB) did not hold the load");
          }
          if (!done[r] && (Long.compareUnsigned(s.processedScn(), loaded.end().scn().value()) >= 0
              || s.eventsPublished() >= expected[r])) {
            done[r] = true;
            cpu[r] = p.cpuSeconds();
            remaining--;
          }
        }
        progress.set(published);
        if (remaining > 0) {
          if (System.nanoTime() > deadline) {
            return invalid(count, config, published, t0, cpu, "timed out: " + published + " of " + workload.events()
                + " events in the buffers");
          }
          Thread.sleep(POLL.toMillis()); // a harness polling a process's API, not a test waiting
        }
      }
      long end = System.nanoTime();
      long first = Long.MAX_VALUE; // the first relay's fetcher connecting: the whitepaper's beginning timestamp
      for (int r = 0; r < count; r++) {
        RelayProcess p = processes.get(r);
        first = Math.min(first, p.connectedNanos() == 0 ? t0 : p.connectedNanos());
        cpu[r] -= p.cpuAtConnected();
      }
      if (processes.stream().anyMatch(p -> p.connectedNanos() == 0)) {
        config += " (timed from JVM start: a relay logged no 'connected' line)";
      }
      double seconds = (end - first) / 1e9;
      startupSeconds = (first - t0) / 1e9;
      published = 0;
      for (RelayProcess p : processes) {
        published += p.status().eventsPublished();
      }
      double cpuTotal = sum(cpu);
      if (published != workload.events()) {
        return RunResult.invalid("stage1", config, count, count, workload, published, seconds, cpuTotal, machine.cores(),
            (published < workload.events() ? "events missing: " : "events duplicated: ") + published + " published, the load wrote "
                + workload.events());
      }
      return RunResult.valid("stage1", config, count, count, workload, published, loaded.binlogBytes(), seconds, cpuTotal,
          machine.cores());
    } finally {
      for (RelayProcess p : processes) {
        p.close();
      }
      Files.deleteIfExists(password);
    }
  }

  private RunResult invalid(int count, String config, long published, long t0, double[] cpu, String reason) {
    return RunResult.invalid("stage1", config, count, count, workload, published, (System.nanoTime() - t0) / 1e9, sum(cpu),
        machine.cores(), reason);
  }

  private static double sum(double[] xs) {
    double total = 0;
    for (double x : xs) {
      total += Math.max(0, x);
    }
    return total;
  }

  /** Enough buffer for this relay's share with room to spare: an evicted window would make the run invalid. */
  private long bufferMiB(int count) {
    double perEvent = workload.recordSize() * (workload.updates() ? 1.5 : 1.0) + 256;
    long bytes = (long) (workload.events() * perEvent / count * 1.3);
    return Math.max(64, (bytes >> 20) + 1);
  }

  private String relayYaml(int r, List<String> include, Path password, long capacityMiB) {
    return String.format(Locale.ROOT, """
        source:
          mysql:
            source: perf
            host: %s
            port: %d
            user: %s
            passwordFile: %s
            serverId: %d
            start: %s
            include: [%s]
            heartbeatInterval: 1s
        buffer:
          capacity: %dMiB
        http:
          host: 127.0.0.1
          port: 0
          ioThreads: 1
        """, db.host(), db.port(), db.replicationUser(), password, 7400 + r, loaded.start(), String.join(", ", include),
        capacityMiB);
  }
}
