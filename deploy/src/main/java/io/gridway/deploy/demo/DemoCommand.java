package io.gridway.deploy.demo;

import io.gridway.consumer.PartitionStatus;
import io.gridway.deploy.Gridway;
import io.gridway.deploy.demo.DemoTopology.DemoConsumer;
import io.gridway.deploy.demo.GridProbe.Sample;
import io.gridway.deploy.demo.TableComparator.TableComparison;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gridway demo}: the whole grid in this process ({@link DemoTopology}), a steady {@link Workload} on the
 * source, a {@link LiveView} once per second, and with {@code --duration} a drain, a source/target comparison
 * ({@link TableComparator}) and a {@link DemoSummary}.
 *
 * <p>Ctrl-C (SIGINT) or SIGTERM asks the run to stop ({@link StopSignals}): it stops every part in order, deletes
 * its files and returns {@value #STOPPED}; a shutdown hook does the same, as well as the JVM's shutdown allows, where
 * the signals cannot be caught. Exit codes otherwise: {@value #EQUAL}, {@value #FAILED}, {@value
 * io.gridway.deploy.Gridway#USAGE}, {@value #DIFFERENT} (see the help). Not thread-safe: one run per instance.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, usageHelpAutoWidth = true, sortOptions = false,
    description = {"Run the whole grid on this machine, in one process: a private MariaDB with the binlog on (the source),"
        + " a private PostgreSQL (the target), ZooKeeper, the admin service and web UI (hosting the Helix controller),"
        + " a relay, two consumers in one consumer"
        + " group applying to PostgreSQL exactly-once, and a workload of inserts, updates and deletes on three tables.",
        "Prints where to look, then one line per second: throughput, lag, the relay's SCN and the applied SCNs,"
            + " and each consumer's partitions. Ctrl-C stops everything and deletes its data (--keep keeps it).",
        "With --duration it stops the workload after that time, waits for the consumers to drain, compares source"
            + " and target table by table (row counts and checksums) and prints a summary. Enter does the same at any"
            + " time, with or without --duration.",
        "With --tls every hop is encrypted and authenticated, with a private CA and certificates made at start (in"
            + " the demo's directory, never reused): the MariaDB accepts only TLS and the relay checks its certificate,"
            + " the relay serves HTTPS with client certificates and a bearer token, the consumers write PostgreSQL over"
            + " TLS (verify-full), ZooKeeper's port is TLS with client certificates and the admin service serves HTTPS."
            + " The demo then shows no password or token: it names the files that hold them.",
        "Needs the MariaDB and PostgreSQL server binaries (Debian packages mariadb-server and postgresql); it uses"
            + " its own private servers on loopback ports, never the machine's databases."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:source = target at the end of --duration (or after Enter)",
        "1:failed at run time (e.g. a server binary missing: the message names the package to install)",
        "2:bad command line",
        "3:source and target differ at the end of --duration (or after Enter)",
        "130:stopped by Ctrl-C or SIGTERM (everything stopped, files deleted unless --keep; a second Ctrl-C exits at"
            + " once)"},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway demo                         # until Ctrl-C",
        "  gridway demo --duration 60s          # then compare: exit 0 if equal",
        "  gridway demo --rate 500 --partitions 8",
        "  gridway demo --duration 20s --keep   # keep its files and data",
        "  gridway demo --tls                   # TLS on every hop (docs/security.md)",
        "  ./gridway demo --duration 60s        # from the source tree"})
public final class DemoCommand implements Callable<Integer> {
  static final int EQUAL = 0;
  static final int FAILED = 1;
  static final int DIFFERENT = 3;
  static final int STOPPED = 130;
  private static final int CONSUMERS = 2;
  private static final long TICK_MILLIS = 200;
  private static final Duration ASSIGN_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
  // a consumer counts an applied transaction just after its commit, which the comparison may already see
  private static final Duration COUNT_SETTLE = Duration.ofSeconds(2);

  @Option(names = "--rate", defaultValue = "200", paramLabel = "TX/S",
      description = "Transactions per second the workload writes (each 1-4 row changes). Default: ${DEFAULT-VALUE}.")
  double rate;

  @Option(names = "--duration", converter = DurationConverter.class, paramLabel = "DURATION",
      description = "Stop after this long (e.g. 20s, 5m), drain, compare and exit. Default: run until Ctrl-C.")
  Duration duration;

  @Option(names = "--partitions", defaultValue = "4", paramLabel = "N",
      description = "Partitions of the source, shared by the two consumers. Default: ${DEFAULT-VALUE}.")
  int partitions;

  @Option(names = "--keep", description = "Keep the demo's directory (configs, relay position, ZooKeeper data) and"
      + " copies of the databases' data directories, and print where.")
  boolean keep;

  @Option(names = "--tls", description = "TLS on every hop, with a private CA and certificates made at start; prints"
      + " where the CA certificate, the client certificate and the relay's token are (docs/security.md).")
  boolean tls;

  @Spec CommandSpec spec;

  // The binlog client logs through java.util.logging (to standard error, over the live view): warnings only.
  private static final java.util.logging.Logger BINLOG_CLIENT =
      java.util.logging.Logger.getLogger("com.github.shyiko.mysql.binlog");

  private final StopSignals signals = new StopSignals();
  private volatile boolean shuttingDown; // the JVM's shutdown started (a signal StopSignals could not catch)

  @Override
  public Integer call() throws Exception {
    validate();
    BINLOG_CLIENT.setLevel(java.util.logging.Level.WARNING);
    PrintWriter out = spec.commandLine().getOut();
    Path dir = Files.createTempDirectory("gridway-demo-");
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      shuttingDown = true;
      try {
        finished.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "gridway-demo-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    signals.install();
    DemoTopology topology = null;
    try {
      out.println("gridway demo: starting the grid in this process; its files are in " + dir);
      out.flush();
      DemoPki pki = null;
      if (tls) {
        out.println("  making a private CA, certificates and a token in " + dir.resolve("tls") + " ...");
        pki = DemoPki.create(dir.resolve("tls"));
      }
      topology = DemoTopology.start(dir, partitions, CONSUMERS, pki, line -> {
        out.println("  " + line);
        out.flush();
      });
      return run(topology, dir, out);
    } catch (Exception e) {
      if (!stopping()) {
        throw e;
      }
      // the JVM's shutdown also ran the private servers' hooks: whatever was starting may have lost its server
      return STOPPED;
    } finally {
      if (stopping()) {
        out.println("gridway demo: stopping (Ctrl-C) ...");
      }
      try {
        if (topology != null && keep) {
          keepDatabases(topology, out);
        }
      } finally {
        if (topology != null) {
          closeTopology(topology, out);
        }
        if (keep) {
          out.println("gridway demo: kept " + dir + ": " + contents(dir));
        } else {
          deleteTree(dir);
        }
        out.flush();
        signals.close();
        finished.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // the JVM is shutting down (Ctrl-C): the hook is running and returns now
        }
      }
    }
  }

  /** The command line's standard input ({@link Gridway#in()}), or none when the demo runs without the CLI. */
  private InputStream input() {
    CommandSpec parent = spec.parent();
    return parent != null && parent.userObject() instanceof Gridway gridway ? gridway.in() : InputStream.nullInputStream();
  }

  /** Ctrl-C or SIGTERM asked the demo to stop (or the JVM is shutting down). */
  private boolean stopping() {
    return signals.requested() || shuttingDown;
  }

  private void keepDatabases(DemoTopology topology, PrintWriter out) throws IOException {
    try {
      topology.keepDatabases();
    } catch (IOException | RuntimeException e) {
      if (!stopping()) {
        throw e;
      }
      // Ctrl-C: the servers' own shutdown hooks stop them and delete their data, maybe before the copy
      out.println("gridway demo: cannot keep the databases' data (Ctrl-C also stops the servers): " + e.getMessage());
    }
  }

  private void closeTopology(DemoTopology topology, PrintWriter out) {
    try {
      topology.close();
    } catch (RuntimeException e) {
      if (!stopping()) {
        throw e;
      }
      // Ctrl-C also ran the private servers' own shutdown hooks, which may have stopped one first
      out.println("gridway demo: while stopping: " + e.getMessage());
    }
  }

  private void validate() {
    if (!(rate > 0 && rate <= 100_000)) {
      throw new ParameterException(spec.commandLine(), "--rate must be above 0 and at most 100000, not " + rate);
    }
    if (partitions < 1 || partitions > 64) {
      throw new ParameterException(spec.commandLine(), "--partitions must be 1..64, not " + partitions);
    }
    if (duration != null && duration.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new ParameterException(spec.commandLine(), "--duration must be at least 1s, not " + duration.toMillis() + "ms");
    }
  }

  private int run(DemoTopology topology, Path dir, PrintWriter out) throws Exception {
    awaitAssignment(topology, out);
    if (stopping()) {
      return STOPPED;
    }
    WhereToLook.print(topology, dir, new WhereToLook.Run(rate, duration, partitions, keep), out);
    LagStats lag = new LagStats();
    LiveView view = new LiveView(out);
    view.header(topology.consumers().stream().map(DemoConsumer::name).toList());
    try (Connection workloadConnection = topology.connectSource()) {
      Workload workload = new Workload(workloadConnection, rate, new Random());
      GridProbe probe = new GridProbe(topology, workload);
      long start = System.nanoTime();
      workload.start();
      long end = duration == null ? Long.MAX_VALUE : start + duration.toNanos();
      long nextPrint = start + TimeUnit.SECONDS.toNanos(1);
      EnterToFinish enter = EnterToFinish.watch(input());
      while (!stopping() && !enter.asked() && System.nanoTime() < end) {
        Thread.sleep(TICK_MILLIS);
        if (stopping()) {
          break;
        }
        checkHealth(topology, workload);
        Sample sample = probe.sample(millisSince(start));
        lag.add(sample.lagMillis());
        if (System.nanoTime() >= nextPrint) {
          view.print(sample, "");
          nextPrint += TimeUnit.SECONDS.toNanos(1);
        }
      }
      long workloadMillis = millisSince(start);
      if (stopping()) {
        stopQuietly(workload); // the servers may already be stopping: Ctrl-C reached their shutdown hooks too
        out.printf("gridway demo: stopped after %d s: %,d transactions written, %,d row changes applied%n",
            workloadMillis / 1000, workload.transactions(), probe.sample(millisSince(start)).appliedEvents());
        return STOPPED;
      }
      workload.stop();
      long drainStart = System.nanoTime();
      List<TableComparison> tables = drain(topology, probe, view, start);
      if (stopping()) {
        return STOPPED;
      }
      Sample last = probe.sample(millisSince(start));
      DemoSummary summary = new DemoSummary(rate, workloadMillis, workload.transactions(), workload.rowChanges(),
          last.appliedEvents(), CONSUMERS, millisSince(drainStart), lag, tables);
      summary.print(out);
      return summary.equal() ? EQUAL : DIFFERENT;
    }
  }

  /** Waits until Helix has given every partition to a consumer and it runs. */
  private void awaitAssignment(DemoTopology topology, PrintWriter out) throws InterruptedException {
    out.println("  waiting for Helix to assign the " + partitions + " partitions to the consumers ...");
    out.flush();
    long deadline = System.nanoTime() + ASSIGN_TIMEOUT.toNanos();
    while (topology.runningPartitions() < partitions) {
      for (DemoConsumer c : topology.consumers()) {
        failure(c).ifPresent(f -> {
          throw new DemoException(f);
        });
      }
      if (stopping()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new DemoException("Helix did not assign all " + partitions + " partitions within "
            + ASSIGN_TIMEOUT.toSeconds() + " s (" + topology.runningPartitions() + " run)");
      }
      Thread.sleep(TICK_MILLIS);
    }
  }

  /**
   * After the workload: until the consumers hold nothing unapplied and every table matches, or the drain timeout.
   * The source no longer changes, so the target only converges; a match that holds is the end state. Once it matches,
   * the applied count gets up to {@link #COUNT_SETTLE} to reach the written one.
   */
  private List<TableComparison> drain(DemoTopology topology, GridProbe probe, LiveView view, long start)
      throws Exception {
    long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    long nextPrint = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    long settled = Long.MAX_VALUE; // when the applied count stops getting time to catch up
    try (Connection source = topology.connectSource(); Connection target = topology.connectTarget()) {
      while (true) {
        checkHealth(topology, null);
        Sample sample = probe.sample(millisSince(start));
        List<TableComparison> tables = TableComparator.compare(source, target);
        boolean converged = sample.heldEvents() == 0 && TableComparator.allEqual(tables);
        if (converged && settled == Long.MAX_VALUE) {
          settled = System.nanoTime() + COUNT_SETTLE.toNanos();
        }
        boolean counted = sample.appliedEvents() >= sample.rowChanges() || System.nanoTime() > settled;
        if ((converged && counted) || System.nanoTime() > deadline || stopping()) {
          return tables;
        }
        if (System.nanoTime() >= nextPrint) {
          view.print(sample, "(draining)");
          nextPrint += TimeUnit.SECONDS.toNanos(1);
        }
        Thread.sleep(TICK_MILLIS);
      }
    }
  }

  private static void checkHealth(DemoTopology topology, Workload workload) {
    if (workload != null && workload.failure() != null) {
      throw new DemoException("the workload failed: " + workload.failure().getMessage(), workload.failure());
    }
    if (topology.relay().publisher().failure() != null) {
      throw new DemoException("the relay stopped: " + topology.relay().publisher().failure().getMessage(),
          topology.relay().publisher().failure());
    }
    for (DemoConsumer c : topology.consumers()) {
      failure(c).ifPresent(f -> {
        throw new DemoException(f);
      });
    }
  }

  private static void stopQuietly(Workload workload) {
    try {
      workload.stop();
    } catch (Exception e) {
      // stopping on Ctrl-C: a statement cut off by the source's shutdown is expected
    }
  }

  private static Optional<String> failure(DemoConsumer c) {
    Optional<PartitionStatus> failed = c.service().failure();
    return failed.map(s -> c.name() + ": partition " + s.partition() + " failed: " + s.detail());
  }

  /** The names in {@code dir}, for the --keep message. */
  private static String contents(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return String.join(" ", files.map(f -> f.getFileName() + (Files.isDirectory(f) ? "/" : "")).sorted().toList());
    }
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (e != null) {
          throw new UncheckedIOException(e);
        }
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
