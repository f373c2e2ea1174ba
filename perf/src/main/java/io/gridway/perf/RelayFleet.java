package io.gridway.perf;

import io.gridway.perf.SourceDb.BinlogPosition;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * R relay JVMs reading one source from one binlog position. Relay r of R includes the tables t with
 * t % R == r (all tables for R = 1), as the whitepaper's rows 4–5 split tables by fetch policy; with
 * {@code partitions} P &gt; 1 a fetch policy spreads events over partitions 0..P-1 by primary-key hash
 * (consumers then take disjoint sets). Each buffer is sized to hold its share of the load: an eviction
 * makes the run invalid. The replication password goes to an owner-only temporary file outside the
 * results, deleted on {@link #close()}. Single-threaded; owned by one perf run.
 */
final class RelayFleet implements AutoCloseable {
  /**
   * What a fleet looks like: R relays, P partitions per relay (1 = no policy), the relay JVM's heap, and
   * the HTTP ports (empty: any free port each), fixed when consumers must know them before the relays start, and
   * the certificates when the relays serve HTTPS ({@code --tls}; null: plain HTTP).
   */
  record Spec(int relays, int partitions, String heap, List<Integer> ports, PerfTls tls) {
    Spec(int relays, int partitions, String heap) {
      this(relays, partitions, heap, List.of(), null);
    }

    Spec(int relays, int partitions, String heap, List<Integer> ports) {
      this(relays, partitions, heap, ports, null);
    }

    int port(int r) {
      return ports.isEmpty() ? 0 : ports.get(r);
    }
  }

  /** {@code n} loopback ports free a moment ago (bound and released), for relays whose consumers start first. */
  static List<Integer> freePorts(int n) throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
  }

  /**
   * One look at every relay: events published in total, whether each holds its share, or why the run is
   * invalid; {@code answered} when every relay answered (only then is {@code published} the fleet's total).
   */
  record Poll(long published, boolean complete, String invalidReason, boolean answered) {}

  private final List<RelayProcess> processes = new ArrayList<>();
  private final long[] expected;
  private final boolean[] done;
  private final double[] cpuAtDone;
  private final long capacityMiB;
  private final Path password;

  private RelayFleet(int count, long capacityMiB, Path password) {
    this.expected = new long[count];
    this.done = new boolean[count];
    this.cpuAtDone = new double[count];
    this.capacityMiB = capacityMiB;
    this.password = password;
  }

  /** Starts the JVMs (configs and logs under {@code dir} as {@code <name>-<r>.yaml|log}) and waits until they listen. */
  static RelayFleet start(SourceDb db, Workload workload, BinlogPosition from, Path dir, String name, Spec spec)
      throws Exception {
    Files.createDirectories(dir);
    Path password = Files.createTempFile("gridway-perf-", ".pw",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(password, db.replicationPassword());
    RelayFleet fleet = new RelayFleet(spec.relays(), bufferMiB(workload, spec.relays()), password);
    try {
      Path policy = spec.partitions() > 1 ? writePolicy(dir, spec.partitions()) : null;
      for (int r = 0; r < spec.relays(); r++) {
        List<String> include = new ArrayList<>();
        for (int t = r; t < workload.tables(); t += spec.relays()) {
          include.add("'" + db.database() + "." + Workload.tableName(t) + "'");
          fleet.expected[r] += workload.eventsOf(t);
        }
        Path yaml = dir.resolve(name + "-" + r + ".yaml");
        Files.writeString(yaml, relayYaml(db, from, r, include, password, fleet.capacityMiB, spec, policy));
        fleet.processes.add(RelayProcess.start(yaml, dir.resolve(name + "-" + r + ".log"), spec.heap(),
            spec.tls() == null ? null : spec.tls().client()));
      }
      for (RelayProcess p : fleet.processes) {
        try {
          p.await(Duration.ofSeconds(180)); // a starved machine can take minutes to start several JVMs
        } catch (TimeoutException e) {
          throw new IllegalStateException("a relay JVM did not listen within 180 s (log " + p.log() + ")", e);
        }
      }
      return fleet;
    } catch (Exception | Error e) {
      fleet.close();
      throw e;
    }
  }

  int size() {
    return processes.size();
  }

  RelayProcess relay(int r) {
    return processes.get(r);
  }

  List<URI> addresses() {
    return processes.stream().map(RelayProcess::address).toList();
  }

  long capacityMiB() {
    return capacityMiB;
  }

  /**
   * Reads every relay's {@code /v1/sources}. A relay counts as complete once it processed {@code end}
   * or published its share; its CPU seconds are taken at that moment.
   */
  Poll poll(BinlogPosition end) throws IOException, InterruptedException {
    long published = 0;
    boolean complete = true;
    boolean answered = true;
    for (int r = 0; r < processes.size(); r++) {
      RelayProcess p = processes.get(r);
      if (!p.isAlive()) {
        return new Poll(published, false, "relay " + r + " exited with " + p.exitCode() + " (log " + p.log() + ")", false);
      }
      RelayProcess.Status s = p.statusOrNull();
      if (s == null) {
        complete &= done[r];
        answered = false;
        continue; // a busy relay (or machine) did not answer in time: ask again at the next poll
      }
      published += s.eventsPublished();
      if (s.windowsEvicted() > 0) {
        return new Poll(published, false, "relay " + r + " fell off its buffer: it evicted " + s.windowsEvicted()
            + " windows (" + capacityMiB + " MiB did not hold the load)", false);
      }
      if (!done[r] && (Long.compareUnsigned(s.processedScn(), end.scn().value()) >= 0 || s.eventsPublished() >= expected[r])) {
        done[r] = true;
        cpuAtDone[r] = p.cpuSeconds();
      }
      complete &= done[r];
    }
    return new Poll(published, complete, null, answered);
  }

  /** Events the relays' buffers hold now (the sum of {@code eventsPublished}). */
  long published() throws IOException, InterruptedException {
    long published = 0;
    for (RelayProcess p : processes) {
      published += p.status().eventsPublished();
    }
    return published;
  }

  /** Why a relay cannot serve any more (exited, evicted), or null. */
  String problem() throws IOException, InterruptedException {
    for (int r = 0; r < processes.size(); r++) {
      RelayProcess p = processes.get(r);
      if (!p.isAlive()) {
        return "relay " + r + " exited with " + p.exitCode() + " (log " + p.log() + ")";
      }
      RelayProcess.Status s = p.statusOrNull();
      long evicted = s == null ? 0 : s.windowsEvicted();
      if (evicted > 0) {
        return "relay " + r + " fell off its buffer: it evicted " + evicted + " windows";
      }
    }
    return null;
  }

  /** Epoch µs and nanoTime of the first relay's fetcher logging that it connected (0 when none did). */
  long firstConnectedNanos() {
    return processes.stream().mapToLong(RelayProcess::connectedNanos).filter(n -> n != 0).min().orElse(0);
  }

  long firstConnectedMicros() {
    return processes.stream().mapToLong(RelayProcess::connectedMicros).filter(n -> n != 0).min().orElse(0);
  }

  boolean allConnected() {
    return processes.stream().allMatch(p -> p.connectedNanos() != 0);
  }

  /** Stage 1's CPU: each relay's CPU seconds from its fetcher connecting until it held its share. */
  double cpuToDone() {
    double total = 0;
    for (int r = 0; r < processes.size(); r++) {
      total += Math.max(0, cpuAtDone[r] - processes.get(r).cpuAtConnected());
    }
    return total;
  }

  /** The relays' CPU seconds now (the whole processes). */
  double cpuNow() {
    return processes.stream().mapToDouble(p -> Math.max(0, p.cpuSeconds())).sum();
  }

  /** CPU seconds since each fetcher connected (start-up excluded). */
  double cpuSinceConnected() {
    return processes.stream().mapToDouble(p -> Math.max(0, p.cpuSeconds() - p.cpuAtConnected())).sum();
  }

  @Override
  public void close() throws IOException {
    for (RelayProcess p : processes) {
      p.close();
    }
    Files.deleteIfExists(password);
  }

  /** Enough buffer for a relay's share with room to spare: an evicted window makes the run invalid. */
  static long bufferMiB(Workload workload, int relays) {
    double perEvent = workload.recordSize() * (workload.updates() ? 1.5 : 1.0) + 256;
    long bytes = (long) (workload.events() * perEvent / relays * 1.3);
    return Math.max(64, (bytes >> 20) + 1);
  }

  private static Path writePolicy(Path dir, int partitions) throws IOException {
    Path policy = dir.resolve("partitions-" + partitions + ".yaml");
    Files.writeString(policy, String.format(Locale.ROOT, """
        name: perf-partitions
        version: 1
        description: spreads every table's rows over %d partitions by primary-key hash (consumers take disjoint sets)
        rules:
          - name: spread
            partition: {key-hash: %d}
        """, partitions, partitions));
    return policy;
  }

  private static String relayYaml(SourceDb db, BinlogPosition from, int r, List<String> include, Path password,
      long capacityMiB, Spec spec, Path policy) {
    String yaml = String.format(Locale.ROOT, """
        source:
          partitions: %d
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
          port: %d
          ioThreads: %d
        """, spec.partitions(), db.host(), db.port(), db.replicationUser(), password, 7400 + r, from,
        String.join(", ", include), capacityMiB, spec.port(r), spec.partitions() > 1 ? 2 : 1)
        + (spec.tls() == null ? "" : "  tls: " + spec.tls().relayYaml() + "\n");
    return policy == null ? yaml : yaml + "policy:\n  files: [" + policy + "]\n  reloadInterval: 0s\n";
  }
}
