package io.gridway.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The HBase side of the Phoenix benchmark, kept off perf's classpath (Hadoop and HBase bring libraries that conflict with
 * ours): the repository's {@code appliers/phoenix} is built with {@code -Pphoenix-addon,phoenix-bench}, which writes the
 * add-on tarball and the module's test classpath; the tarball is unpacked as an operator would ({@code addons/phoenix/}
 * under a home directory) for the consumer and limit JVMs, and {@code PhoenixBenchCluster} (the module's HBase mini
 * cluster with Phoenix) runs in a JVM of its own on that test classpath. This class owns that JVM and speaks its line
 * protocol ({@code count}, {@code drop}). Single-threaded (one command at a time).
 */
final class PhoenixSide implements AutoCloseable {
  /** Phoenix's own Java 17 flags (as in appliers/phoenix's pom and bin/gridway): without them the HBase client runs slower. */
  static final List<String> JVM_FLAGS = List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens",
      "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens",
      "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens",
      "java.base/java.util=ALL-UNNAMED", "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens",
      "java.base/jdk.internal.util.random=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
      "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true");

  private final Process process;
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private final String url;
  private final Path addOns;

  private PhoenixSide(Process process, Path log, Path addOns) throws IOException, InterruptedException {
    this.process = process;
    this.addOns = addOns;
    Thread pump = new Thread(() -> pump(log), "perf-phoenix-cluster-log");
    pump.setDaemon(true);
    pump.start();
    String first = replies.poll(5, TimeUnit.MINUTES);
    if (first == null || !first.startsWith("URL ")) {
      Jvm.stop(process);
      throw new IOException("the HBase mini cluster did not start within 5 min: " + first + " (log " + log + ")");
    }
    url = first.substring("URL ".length());
  }

  /** Builds the module and its add-on, unpacks the add-on and starts the mini cluster; logs go to {@code dir}. */
  static PhoenixSide start(Path dir) throws IOException, InterruptedException {
    Path module = locateModule();
    if (module == null) {
      throw new IOException("appliers/phoenix not found above " + Path.of("").toAbsolutePath()
          + ": the Phoenix benchmark runs from the source tree");
    }
    Files.createDirectories(dir);
    build(module, dir.resolve("phoenix-build.log"));
    Path addOns = unpackAddOn(module);
    String classpath = module.resolve("target/test-classes") + ":" + module.resolve("target/classes") + ":"
        + Files.readString(module.resolve("target/bench-classpath.txt")).trim();
    // 3 GiB: at the default scale (1,440,000 rows, 1.6 GB) a 1 GiB region server ran out of heap (memstores, and the
    // row count that checks each run)
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx3g"));
    command.addAll(JVM_FLAGS);
    command.addAll(List.of("-cp", classpath, "io.gridway.applier.phoenix.PhoenixBenchCluster"));
    System.err.println("starting the HBase mini cluster with Phoenix (30-60 s) ...");
    // in the module's directory, so the cluster's files go to appliers/phoenix/target/test-data as in its ITs
    Process process = new ProcessBuilder(command).directory(module.toFile()).redirectErrorStream(true).start();
    return new PhoenixSide(process, dir.resolve("phoenix-cluster.log"), addOns);
  }

  /** {@code jdbc:phoenix:127.0.0.1:<zk port>}. */
  String url() {
    return url;
  }

  /** The unpacked add-ons directory ({@code <home>/addons}), for {@code -Dgridway.addons=}. */
  Path addOns() {
    return addOns;
  }

  /** Options of a JVM that uses Phoenix through the add-on (consumers, the limit). */
  List<String> clientJvmOptions() {
    List<String> options = new ArrayList<>(JVM_FLAGS);
    options.add("-D" + AddOnLoader.PROPERTY + "=" + addOns);
    return options;
  }

  long count(String schema, String table) throws IOException, InterruptedException {
    return Long.parseLong(ask("count " + schema + " " + table, "COUNT "));
  }

  /** Drops every table of {@code schema} (and their views) and the applier's checkpoint table. */
  void drop(String schema) throws IOException, InterruptedException {
    ask("drop " + schema, "DROPPED ");
  }

  /** Runs one statement in the cluster JVM, auto-committed. */
  void sql(String statement) throws IOException, InterruptedException {
    ask("sql " + statement.replace('\n', ' '), "DONE ");
  }

  /** Deletes every row of {@code table} (default schema) when it exists. */
  void emptyIfExists(String table) throws IOException, InterruptedException {
    ask("empty " + table, "DONE ");
  }

  private String ask(String command, String expect) throws IOException, InterruptedException {
    OutputStream in = process.getOutputStream();
    in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
    String reply = replies.poll(10, TimeUnit.MINUTES);
    if (reply == null || !reply.startsWith(expect)) {
      throw new IOException("the HBase mini cluster answered '" + command + "' with " + reply);
    }
    return reply.substring(expect.length());
  }

  private void pump(Path log) {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter file = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        file.println(line);
        if (line.startsWith("URL ") || line.startsWith("COUNT ") || line.startsWith("DROPPED ") || line.startsWith("DONE ") || line.startsWith("ERROR ")) {
          replies.add(line);
        }
      }
    } catch (IOException e) {
      replies.add("ERROR cannot read the cluster's output: " + e);
    }
    replies.add("ERROR the mini cluster's JVM exited (log " + log + ")");
  }

  @Override
  public void close() {
    try {
      process.getOutputStream().write("quit\n".getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        Jvm.stop(process);
      }
    } catch (IOException e) {
      Jvm.stop(process);
    } catch (InterruptedException e) {
      Jvm.stop(process);
      Thread.currentThread().interrupt();
    }
  }

  /** appliers/phoenix of the repository around the working directory, or null. */
  static Path locateModule() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("appliers/phoenix/pom.xml")) && Files.isRegularFile(dir.resolve("mvnw"))) {
        return dir.resolve("appliers/phoenix");
      }
    }
    return null;
  }

  /**
   * {@code mvnw -B -q -pl appliers/phoenix -am -Pphoenix-addon,phoenix-bench package -DskipTests} (about a minute). Not
   * offline: on a machine that has never built the add-on, Maven fetches the Phoenix client (~150 MB) once.
   */
  private static void build(Path module, Path log) throws IOException, InterruptedException {
    Path root = module.getParent().getParent();
    System.err.println("building appliers/phoenix and its add-on (log " + log + ") ...");
    Process maven = new ProcessBuilder(root.resolve("mvnw").toString(), "-B", "-q", "-pl", "appliers/phoenix", "-am",
        "-Pphoenix-addon,phoenix-bench", "package", "-DskipTests").directory(root.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!maven.waitFor(20, TimeUnit.MINUTES) || maven.exitValue() != 0) {
      maven.destroyForcibly();
      throw new IOException("could not build appliers/phoenix with its add-on: see " + log);
    }
  }

  /**
   * Unpacks {@code target/gridway-phoenix-addon-*.tar.gz} into {@code target/bench-home} as the deploy guide tells an
   * operator ({@code tar -xzf … -C $GRIDWAY_HOME}); returns {@code target/bench-home/addons}.
   */
  static Path unpackAddOn(Path module) throws IOException, InterruptedException {
    Path tarball;
    try (Stream<Path> files = Files.list(module.resolve("target"))) {
      tarball = files.filter(f -> f.getFileName().toString().matches("gridway-phoenix-addon-.*\\.tar\\.gz")).findFirst()
          .orElseThrow(() -> new IOException("no gridway-phoenix-addon-*.tar.gz in " + module.resolve("target")));
    }
    Path home = module.resolve("target/bench-home");
    if (Files.exists(home)) {
      try (Stream<Path> old = Files.walk(home)) {
        for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(home);
    Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", home.toString()).redirectErrorStream(true)
        .start();
    String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (tar.waitFor() != 0) {
      throw new IOException("tar -xzf " + tarball + " failed: " + output);
    }
    return home.resolve("addons");
  }
}
