package io.gridway.applier.jdbc;

import static org.awaitility.Awaitility.await;

import io.gridway.consumer.service.ConsumerMain;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.ReplicaVerifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the network-fault scenarios share: {@link KillWorkload} writing into a database of the private MariaDB, a
 * relay reading it, a PostgreSQL target database, {@link ConsumerMain} in a JVM of its own applying exactly once with
 * the JDBC applier, its Prometheus metrics, and the {@link ReplicaVerifier} over the workload's tables. The target's
 * {@code audit} table has one column more than the source's, a serial {@code applied}, which records the order the
 * target applied the keyless rows in. {@link #close()} kills the consumer and stops the relay and the writer.
 */
final class FaultRig implements AutoCloseable {
  private static final Pattern HTTP_LINE = Pattern.compile("/metrics on http://127\\.0\\.0\\.1:(\\d+)");

  final Path dir;
  final long seed;
  final PrivateMariaDb source = PrivateMariaDb.shared();
  final PrivatePostgres postgres = PrivatePostgres.shared();
  final String database;
  final String targetDatabase;
  final Relay relay;
  final int relayPort;
  final KillWorkload writer;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Process> processes = new ArrayList<>();
  private int metricsPort;

  FaultRig(String name) throws Exception {
    dir = Files.createDirectories(Path.of("target", name + "-" + System.nanoTime()));
    seed = Long.getLong("gridway.seed", System.nanoTime());
    System.out.printf("fault scenario %s: seed %d (rerun with -Dgridway.seed=%d), files in %s%n", name, seed, seed, dir);
    Random random = new Random(seed);
    database = source.createDatabase(name);
    source.execute(database, KillWorkload.mariaDbDdl());
    targetDatabase = postgres.createDatabase(name);
    postgres.execute(targetDatabase, KillWorkload.postgresDdl(database));
    postgres.execute(targetDatabase, "ALTER TABLE \"" + database + "\".audit ADD COLUMN applied BIGSERIAL");
    relay = KillWorkload.relay(source, database, dir, random);
    relayPort = relay.start().getPort();
    writer = new KillWorkload(source, database, random.nextLong());
  }

  /** Rounds per scenario: a few by default, 20 under {@code -Pchaos} (it sets {@code gridway.long}). */
  static int rounds(int byDefault) {
    return Boolean.getBoolean("gridway.long") ? 20 : byDefault;
  }

  /** The target's JDBC URL, its port replaced by {@code port} (a proxy's). */
  String targetUrl(int port) {
    return postgres.jdbcUrl(targetDatabase).replace(":" + postgres.port() + "/", ":" + port + "/");
  }

  /** Starts the consumer (group {@code faults}, partition 0) and waits until it serves its metrics. */
  void startConsumer(URI relayUri, String targetUrl, String extraConsumerYaml) throws Exception {
    Path config = dir.resolve("consumer.yml");
    Files.writeString(config, """
        consumer:
          source: src
          group: faults
          relays: [%s]
          partitions: [0]
          pull: {waitTime: 200ms, backoff: 20ms%s}
          batch: {maxEvents: 300, maxWait: 5ms, maxInFlight: 3}
        applier:
          type: jdbc
          jdbc: {url: "%s", user: %s, passwordEnv: FAULT_TARGET_PASSWORD, schemaChange: stop}
        http: {port: 0}
        """.formatted(relayUri, extraConsumerYaml, targetUrl, postgres.user()));
    Path log = dir.resolve("consumer.log");
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        ConsumerMain.class.getName(), "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("FAULT_TARGET_PASSWORD", postgres.password() == null ? "" : postgres.password());
    Process process = builder.start();
    processes.add(process);
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
        .until(() -> !process.isAlive() || HTTP_LINE.matcher(Files.readString(log)).find());
    Matcher m = HTTP_LINE.matcher(Files.readString(log));
    if (!process.isAlive() || !m.find()) {
      throw new IllegalStateException("consumer did not start; its log:\n" + Files.readString(log));
    }
    metricsPort = Integer.parseInt(m.group(1));
  }

  /** The sum over all tags of a metric from the consumer's /metrics (Prometheus name), 0 when absent. */
  double metric(String name) throws Exception {
    String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
    double sum = 0;
    for (String line : body.split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  /** Rows in the target's keyless table: how far the consumer has come. */
  long targetAuditRows() throws Exception {
    return Long.parseLong(io.gridway.testkit.SqlRows.of(postgres.connect(targetDatabase),
        "SELECT count(*) FROM \"" + database + "\".audit").get(0));
  }

  /** Rows in the source's keyless table. */
  long sourceAuditRows() throws Exception {
    return Long.parseLong(io.gridway.testkit.SqlRows.of(source.connect(database), "SELECT count(*) FROM audit").get(0));
  }

  /** Target = source for every workload table, the keyless one exactly, and its rows applied in commit order. */
  ReplicaVerifier verifier() {
    String t = "\"" + database + "\".";
    String ts = "to_char(%s, 'YYYY-MM-DD HH24:MI:SS.US')";
    String mts = "DATE_FORMAT(%s, '%%Y-%%m-%%d %%H:%%i:%%s.%%f')";
    return ReplicaVerifier.between(() -> source.connect(database), () -> postgres.connect(targetDatabase))
        .table("accounts", "SELECT id, owner, balance, " + mts.formatted("updated") + " FROM accounts",
            "SELECT id, owner, balance, " + ts.formatted("updated") + " FROM " + t + "accounts")
        .table("orders", "SELECT id, account, note, qty FROM orders", "SELECT id, account, note, qty FROM " + t + "orders")
        .table("order_lines", "SELECT order_id, line, sku, price FROM order_lines",
            "SELECT order_id, line, sku, price FROM " + t + "order_lines")
        .appendOnly("audit", "SELECT seq, tx, what, " + mts.formatted("at") + " FROM audit",
            "SELECT seq, tx, what, " + ts.formatted("at") + " FROM " + t + "audit")
        // One partition: the whole keyless table is one key, its seq the source's commit order.
        .order("audit", "SELECT 'all', seq FROM " + t + "audit ORDER BY applied");
  }

  @Override
  public void close() {
    processes.forEach(Process::destroyForcibly);
    writer.close();
    relay.close();
  }
}
