package io.gridway.consumer.service;

import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ZkConfig;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the service ITs share: a relay reading a private MariaDB's binlog (one table {@code t(id, v)}), and {@link
 * ConsumerMain} launched in a JVM of its own as systemd would run it, its output in a log file, its exit code observed.
 * {@link #close()} kills every process still running.
 */
final class ServiceRig implements AutoCloseable {
  static final Pattern HTTP_LINE = Pattern.compile("/metrics on http://127\\.0\\.0\\.1:(\\d+)");
  final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private int launches;

  ServiceRig(String name) throws IOException {
    this.dir = Files.createDirectories(Path.of("target", name + "-" + System.nanoTime()));
  }

  /** A free loopback port now (a relay started later binds it; the window in between is short). */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** A cluster name of its own for a test on the shared ZooKeeper. */
  static String clusterName(String prefix) {
    return prefix + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100_000;
  }

  /** A new database of the shared MariaDB source and a new PostgreSQL database holding the same tables. */
  record SourceAndTarget(String source, String target) {}

  /**
   * Runs {@code createTables} ({@code CREATE TABLE name (…)} statements) in a new source database and in a new PostgreSQL
   * database, there in a schema named as the source database, where the JDBC applier writes the source's tables.
   */
  static SourceAndTarget sourceAndTarget(String name, String... createTables) throws SQLException {
    String db = PrivateMariaDb.shared().createDatabase(name);
    PrivateMariaDb.shared().execute(db, createTables);
    String target = PrivatePostgres.shared().createDatabase(name);
    List<String> ddl = new ArrayList<>();
    ddl.add("CREATE SCHEMA \"" + db + "\"");
    for (String create : createTables) {
      ddl.add(create.replaceFirst("^CREATE TABLE (\\w+)", "CREATE TABLE \"" + db + "\".$1"));
    }
    PrivatePostgres.shared().execute(target, ddl.toArray(String[]::new));
    return new SourceAndTarget(db, target);
  }

  static String[] sourceDdl() {
    return new String[] {"CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)"};
  }

  static String[] postgresDdl(String schema) {
    return new String[] {"CREATE SCHEMA \"" + schema + "\"",
        "CREATE TABLE \"" + schema + "\".t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL)"};
  }

  /** A relay of source {@code src} (1 partition) reading {@code database.*} from the binlog's end now, on {@code port}. */
  Relay relay(PrivateMariaDb source, String database, int port) throws Exception {
    return relay(dir, source, database, port, 1);
  }

  /** A relay of source {@code src} with {@code partitions} reading {@code database.*} from the binlog's end now. */
  static Relay relay(Path dir, PrivateMariaDb source, String database, int port, int partitions) throws Exception {
    return relay(dir, source, database, port, partitions, "{capacity: 64MiB, maxWindow: 8MiB}");
  }

  /** The same with the {@code buffer:} section given (a tiny {@code indexWindows} makes windows fall off quickly). */
  static Relay relay(Path dir, PrivateMariaDb source, String database, int port, int partitions, String buffer)
      throws Exception {
    return relay(dir, source, database, port, partitions, buffer, "");
  }

  /** The same with more top-level relay YAML ({@code positionFile: ...} for a relay that restarts where it stopped). */
  static Relay relay(Path dir, PrivateMariaDb source, String database, int port, int partitions, String buffer,
      String more) throws Exception {
    return new Relay(RelayConfig.parse(relayYaml(dir, source, database, port, partitions, buffer, more), "test relay"),
        Clock.systemUTC());
  }

  /** The YAML of {@link #relay}: for a relay run in a JVM of its own ({@link #launchRelay}). */
  static String relayYaml(Path dir, PrivateMariaDb source, String database, int port, int partitions, String buffer,
      String more) throws Exception {
    String start;
    try (Connection c = source.connect(""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      start = rs.getString(1) + ":" + rs.getLong(2);
    }
    Path password = dir.resolve("repl.pw");
    Files.writeString(password, source.replicationPassword() + "\n");
    return """
        source:
          partitions: %d
          mysql: {source: src, host: %s, port: %d, user: %s, passwordFile: %s, serverId: %d, start: "%s",
                  include: ["%s.*"], heartbeatInterval: 300ms, reconnectBackoffMax: 300ms}
        buffer: %s
        http: {port: %d, ioThreads: 1, shutdownGrace: 0s, stream: {heartbeat: 200ms}}
        %s""".formatted(partitions, source.host(), source.port(), source.replicationUser(), password,
        100_000 + (int) (System.nanoTime() % 1_000_000), start, database, buffer, port, more);
  }

  /**
   * Starts {@code RelayMain} on {@code yaml} in a JVM of its own (killed with SIGKILL like a lost VM), and waits until it
   * listens; its output is appended to {@code relay.log}.
   */
  Process launchRelay(String yaml) throws IOException {
    Path config = dir.resolve("relay.yml");
    Files.writeString(config, yaml);
    Path log = dir.resolve("relay.log");
    long before = Files.exists(log) ? Files.size(log) : 0;
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:MaxDirectMemorySize=256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        "io.gridway.relay.RelayMain", config.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    processes.add(process);
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50)).until(() -> {
      if (!process.isAlive()) {
        throw new AssertionError("relay exited with " + process.exitValue() + ": " + Files.readString(log));
      }
      String output = Files.readString(log);
      return output.substring((int) Math.min(before, output.length())).contains("gridway relay listening on");
    });
    return process;
  }

  /** A running consumer service and its log. */
  /**
   * The file of one cluster-mode consumer (instance c1) of an exactly-once group {@code eo} of one partition, pulling
   * from the relay at {@code relayPort} into {@code targetDb} of {@code pg}, its password in a file.
   */
  Path exactlyOnceClusterConsumer(int relayPort, PrivatePostgres pg, String targetDb, ZkConfig zk, String cluster)
      throws IOException {
    return exactlyOnceClusterConsumer(relayPort, pg, targetDb, zk, cluster, "");
  }

  /** The same with more lines of the {@code consumer:} section ({@code start: snapshot}, …), each indented by two. */
  Path exactlyOnceClusterConsumer(int relayPort, PrivatePostgres pg, String targetDb, ZkConfig zk, String cluster,
      String moreConsumer) throws IOException {
    Path password = Files.writeString(dir.resolve("target.pw"), pg.password() == null ? "" : pg.password());
    return Files.writeString(dir.resolve("consumer.yml"), """
        consumer:
          source: src
          group: eo
          relays: [http://127.0.0.1:%d]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxWait: 5ms}
        %s
        applier:
          jdbc: {url: "%s", user: %s, passwordFile: %s}
        cluster: {zk: "%s", name: %s, instance: c1, partitions: 1, replicas: 1}
        """.formatted(relayPort, moreConsumer, pg.jdbcUrl(targetDb), pg.user(), password.toAbsolutePath(),
        zk.connectString(), cluster));
  }

  record Service(Process process, Path log) {
    String output() throws IOException {
      return Files.exists(log) ? Files.readString(log) : "";
    }
  }

  /** Starts {@code ConsumerMain --config} on {@code yaml}; {@code env} holds e.g. the target's password. */
  Service launch(String yaml, Map<String, String> env) throws IOException {
    int n = launches++;
    Path config = dir.resolve("consumer-" + n + ".yml");
    Files.writeString(config, yaml);
    Path log = dir.resolve("consumer-" + n + ".log");
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx192m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        ConsumerMain.class.getName(), "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    processes.add(process);
    return new Service(process, log);
  }

  /** The health port the service logged (it listens before anything else). */
  int httpPort(Service service) {
    return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
      Matcher m = HTTP_LINE.matcher(service.output());
      return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }, port -> port > 0 || !service.process().isAlive());
  }

  /** GET {@code path} on the service's health port: status and body. */
  HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Sends {@code signal} (STOP, CONT, KILL, ...) to each process, as an operator's {@code kill -SIGNAL} would. */
  static void signal(String signal, Process... processes) throws IOException, InterruptedException {
    for (Process p : processes) {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
      org.assertj.core.api.Assertions.assertThat(kill.waitFor()).as("kill -%s %d", signal, p.pid()).isZero();
    }
  }

  /** Whether a relay on {@code port} answers {@code /v1/sources} with 200 now. */
  static boolean sourcesAnswer(int port) {
    try {
      return SOURCES_PROBE.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port
              + "/v1/sources")).timeout(java.time.Duration.ofSeconds(5)).build(),
          java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private static final java.net.http.HttpClient SOURCES_PROBE =
      java.net.http.HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(5)).build();

  /** How many times {@code what} occurs in {@code text} (log lines counted in a service's output). */
  static int occurrences(String text, String what) {
    return text.split(java.util.regex.Pattern.quote(what), -1).length - 1;
  }

  static long count(Connection target, String sql) throws SQLException {
    try (Statement s = target.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public void close() {
    processes.forEach(Process::destroyForcibly);
  }
}
