package io.gridway.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code --peers}: the Debezium embedded engine with its MariaDB connector reading the load's binlog, the
 * system most users would pick instead ("peer-debezium"). Debezium and Kafka Connect never touch the
 * grid's classpath: {@code perf/peer-debezium} is a separate Maven project (versions pinned in the root
 * pom) that this class builds with the repository's Maven wrapper and runs in its own JVM. The engine
 * starts with no offsets and {@code snapshot.mode=never}, so it reads the binlog from its beginning (the
 * tables' DDL, then the load); offsets and schema history go to a temporary directory, deleted afterwards,
 * with the properties (they hold the password). Timed like the consumers: first to last row event
 * handed to its counting handler, CPU of its process over the same span. Single-threaded.
 */
final class DebeziumPeer {
  private final RunContext context;

  DebeziumPeer(RunContext context) {
    this.context = context;
  }

  RunResult run() throws Exception {
    Workload w = context.workload();
    String config = "Debezium embedded engine, MariaDB connector, no snapshot, counting handler";
    Path project = locateProject();
    if (project == null) {
      return invalid(config, 0, "perf/peer-debezium not found above " + Path.of("").toAbsolutePath()
          + ": run from the repository");
    }
    String build = build(project);
    if (build != null) {
      return invalid(config, 0, build);
    }
    String classpath = Files.readString(project.resolve("target/classpath.txt")).trim();
    config = "Debezium " + version(classpath) + " embedded engine, MariaDB connector, no snapshot, counting handler";
    Path temp = Files.createTempDirectory("gridway-perf-debezium-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try {
      Files.createDirectories(context.dir());
      Path props = temp.resolve("engine.properties");
      Files.writeString(props, properties(temp));
      long timeout = FleetWait.timeoutFor(w.events()).toSeconds();
      Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-cp",
          project.resolve("target/classes") + ":" + classpath, "io.gridway.perf.debezium.DebeziumPeerMain", props.toString(), Long.toString(w.events()),
          Long.toString(timeout)).redirectErrorStream(true).start();
      Map<String, String> result = new HashMap<>();
      String failed = ChildResult.pump(process, context.dir().resolve("peer-debezium.log"), result);
      if (!process.waitFor(timeout + 60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      if (failed != null || result.isEmpty()) {
        return invalid(config, 0, "the Debezium engine did not complete: " + (failed != null ? failed : "exit "
            + process.exitValue()) + " (log " + context.dir().resolve("peer-debezium.log") + ")");
      }
      long events = Long.parseLong(result.get("events"));
      double seconds = (Long.parseLong(result.get("last")) - Long.parseLong(result.get("first"))) / 1e6;
      double cpu = Double.parseDouble(result.get("cpuEnd")) - Double.parseDouble(result.get("cpuFirst"));
      return RunResult.valid("peer-debezium", config, 1, 0, w, events, context.loaded().binlogBytes(), seconds, cpu,
          context.machine().cores());
    } finally {
      try (Stream<Path> files = Files.walk(temp)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private RunResult invalid(String config, long events, String reason) {
    return RunResult.invalid("peer-debezium", config, 1, 0, context.workload(), events, 0, 0, context.machine().cores(),
        reason);
  }

  private String properties(Path temp) {
    SourceDb db = context.db();
    List<String> lines = new ArrayList<>(List.of(
        "name=gridway-perf-peer",
        "connector.class=io.debezium.connector.mariadb.MariaDbConnector",
        "offset.storage=org.apache.kafka.connect.storage.FileOffsetBackingStore",
        "offset.storage.file.filename=" + temp.resolve("offsets.dat"),
        "offset.flush.interval.ms=60000",
        "schema.history.internal=io.debezium.storage.file.history.FileSchemaHistory",
        "schema.history.internal.file.filename=" + temp.resolve("schema-history.dat"),
        "database.hostname=" + db.host(),
        "database.port=" + db.port(),
        "database.user=" + db.user(),
        "database.password=" + db.password(),
        "database.server.id=7600",
        "topic.prefix=peer",
        "database.include.list=" + db.database(),
        "snapshot.mode=never",
        "include.schema.changes=false",
        "tombstones.on.delete=false"));
    return String.join("\n", lines) + "\n";
  }

  /** The project directory perf/peer-debezium of the repository around the working directory, or null. */
  static Path locateProject() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("perf/peer-debezium/pom.xml"))) {
        return dir.resolve("perf/peer-debezium");
      }
      if (Files.isRegularFile(dir.resolve("peer-debezium/pom.xml"))) {
        return dir.resolve("peer-debezium");
      }
    }
    return null;
  }

  /** {@code mvnw -q -f perf/peer-debezium/pom.xml package dependency:build-classpath}; null when it worked. */
  private static String build(Path project) throws IOException, InterruptedException {
    Path root = project.getParent().getParent();
    Path mvnw = root.resolve("mvnw");
    Process maven = new ProcessBuilder(mvnw.toString(), "-B", "-q", "-f", project.resolve("pom.xml").toString(), "package",
        "dependency:build-classpath", "-Dmdep.outputFile=target/classpath.txt").directory(root.toFile())
        .redirectErrorStream(true).redirectOutput(project.resolve("build.log").toFile()).start();
    System.err.println("building the Debezium peer (" + project + ", log build.log) ...");
    if (!maven.waitFor(20, TimeUnit.MINUTES) || maven.exitValue() != 0) {
      maven.destroyForcibly();
      return "could not build the Debezium peer: see " + project.resolve("build.log");
    }
    return null;
  }

  /** The debezium-embedded version on the peer's classpath (the root pom's debezium.version). */
  static String version(String classpath) {
    for (String entry : classpath.split(":")) {
      int at = entry.indexOf("/debezium-embedded/");
      if (at >= 0) {
        String rest = entry.substring(at + "/debezium-embedded/".length());
        return rest.substring(0, rest.indexOf('/'));
      }
    }
    return "(unknown version)";
  }
}
