package io.gridway.applier.jdbc;

import static org.awaitility.Awaitility.await;

import io.gridway.consumer.service.ConsumerMain;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.MariaDbGtidPair;
import io.gridway.testkit.NetworkNamespace;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.ReplicaVerifier;
import io.gridway.testkit.SqlRows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the fault scenarios share: a writer ({@link KillWorkload}, or {@link OutageWorkload} where the source itself
 * goes down) on a database of a private MariaDB, a relay reading it, a {@link FaultTarget}, {@link ConsumerMain} in a
 * JVM of its own applying exactly once with the JDBC applier, its Prometheus metrics, and the {@link ReplicaVerifier}
 * over the workload's tables. {@link Setup} says which parts are the scenario's own to break. {@link #close()} kills
 * the consumer, stops the relay and the writer, and closes the dedicated servers.
 */
final class FaultRig implements AutoCloseable {
  private static final Pattern HTTP_LINE = Pattern.compile("/metrics on http://([0-9.]+):(\\d+)");

  /**
   * What a scenario breaks.
   *
   * @param dedicatedSource a MariaDB source of the scenario's own (to kill or purge), with {@link OutageWorkload}
   * @param target the target's kind
   * @param relayPositionFile whether the relay keeps its position in a file (a restarted relay resumes there)
   * @param gtidPair the source is a {@link MariaDbGtidPair} (primary and replica, both dedicated) that the relay follows
   *     with {@code scn: gtid} and both hosts, written by an {@link OutageWorkload} that follows the primary
   */
  record Setup(boolean dedicatedSource, FaultTarget.Kind target, boolean relayPositionFile, boolean gtidPair) {
    /** The shared servers, no position file: for faults of the links between them. */
    static final Setup LINKS = new Setup(false, FaultTarget.Kind.SHARED_POSTGRES, false);
    /** A source primary and replica in GTID replication, for primary switches. */
    static final Setup PRIMARY_SWITCH = new Setup(true, FaultTarget.Kind.SHARED_POSTGRES, false, true);

    Setup(boolean dedicatedSource, FaultTarget.Kind target, boolean relayPositionFile) {
      this(dedicatedSource, target, relayPositionFile, false);
    }
  }

  final Path dir;
  final long seed;
  final Random random;
  /** The source server; of a {@link #pair}, the first primary (the current one is {@code pair.primary()}). */
  final PrivateMariaDb source;
  /** The source's primary and replica, or null for a source of one server. */
  final MariaDbGtidPair pair;
  final FaultTarget target;
  final String database;
  final int relayPort;
  final FaultLoad writer;
  private final boolean dedicatedSource;
  private final boolean relayPositionFile;
  /** Connections to the source's database: its server, or whichever server of the pair takes writes. */
  private final OutageWorkload.Connector sourceDb;
  private final List<Relay> moreRelays = new ArrayList<>();
  private String relayStart;
  private String relayYaml;
  private Relay relay;
  private boolean relayRunning;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Process> processes = new ArrayList<>();
  private int metricsPort;
  private Process consumer;
  private final java.util.Map<String, Process> consumers = new java.util.HashMap<>();
  private final java.util.Map<String, Integer> metricsPorts = new java.util.HashMap<>();
  private final java.util.Map<String, String> metricsHosts = new java.util.HashMap<>();
  private String metricsHost = "127.0.0.1";
  /** More keys of the consumers' {@code applier.jdbc}, each after ", ". */
  private String applierKeys = "";

  FaultRig(String name) throws Exception {
    this(name, Setup.LINKS);
  }

  FaultRig(String name, Setup setup) throws Exception {
    dir = Files.createDirectories(Path.of("target", name + "-" + System.nanoTime()));
    seed = Long.getLong("gridway.seed", System.nanoTime());
    System.out.printf("fault scenario %s: seed %d (rerun with -Dgridway.seed=%d), files in %s%n", name, seed, seed, dir);
    random = new Random(seed);
    dedicatedSource = setup.dedicatedSource();
    pair = setup.gtidPair() ? MariaDbGtidPair.start() : null;
    source = pair != null ? pair.primary() : dedicatedSource ? PrivateMariaDb.dedicated() : PrivateMariaDb.shared();
    sourceDb = this::connectSource;
    FaultTarget created = null;
    try {
      database = source.createDatabase(name);
      source.execute(database, KillWorkload.mariaDbDdl());
      created = FaultTarget.create(setup.target(), name, database);
      relayPositionFile = setup.relayPositionFile();
      relayYaml = relayYaml(relayPositionFile);
      relay = new Relay(RelayConfig.parse(relayYaml.formatted(0), name + " relay"), Clock.systemUTC());
      relayPort = relay.start().getPort();
      relayRunning = true;
    } catch (Exception | Error e) {
      if (created != null) {
        created.close();
      }
      if (relay != null) {
        relay.close();
      }
      closeSource();
      throw e;
    }
    target = created;
    writer = pair != null ? new OutageWorkload(sourceDb, random.nextLong())
        : dedicatedSource ? new OutageWorkload(source, database, random.nextLong())
        : FaultLoad.of(new KillWorkload(source, database, random.nextLong()));
  }

  /**
   * The relay's file, its HTTP port left as {@code %d}: {@code database.*} of the source from the binlog's end now,
   * one partition, so every source transaction arrives whole and in commit order.
   */
  private String relayYaml(boolean positionFile) throws Exception {
    String start;
    if (pair != null) {
      start = "gtid:" + MariaDbGtidPair.gtidBinlogPos(source);
    } else {
      try (Connection c = source.connect(""); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
        rs.next();
        start = rs.getString(1) + ":" + rs.getLong(2);
      }
    }
    relayStart = start;
    return relayYaml(positionFile, start, source.port());
  }

  /**
   * As above, starting at {@code start} (a relay's {@code start} key: {@code end}, {@code <file>:<offset>}, …) and
   * reading the source at {@code sourcePort} of its host (a proxy's, or its own); of a {@link #pair}, both servers
   * with {@code scn: gtid}. Each call gives the relay a server id of its own.
   */
  private String relayYaml(boolean positionFile, String start, int sourcePort) throws Exception {
    Path password = dir.resolve("repl.pw");
    Files.writeString(password, source.replicationPassword() + "\n");
    String where = pair == null ? "host: %s, port: %d".formatted(source.host(), sourcePort)
        : "hosts: ['%s:%d', '%s:%d'], scn: gtid, connectTimeout: 2s".formatted(pair.primary().host(),
            pair.primary().port(), pair.replica().host(), pair.replica().port());
    return """
        source:
          partitions: 1
          mysql: {source: src, %s, user: %s, passwordFile: %s, serverId: %d, start: "%s",
                  include: ["%s.*"], heartbeatInterval: 300ms, reconnectBackoffMax: 300ms}
        buffer: {capacity: 64MiB, maxWindow: 8MiB}
        %s
        """.formatted(where, source.replicationUser(), password,
        100_000 + random.nextInt(1_000_000), start, database,
        positionFile ? "positionFile: " + dir.resolve("relay.position") + "\npositionFlush: 50ms" : "")
        .replace("%", "%%") + "http: {port: %d, ioThreads: 1, shutdownGrace: 0s, stream: {heartbeat: 200ms}}\n";
  }

  /**
   * Makes the consumers started from now on have the target end a transaction of theirs left idle for {@code timeout}
   * ({@code applier.jdbc.idleTransactionTimeout}, default 30 s): how long a cut-off owner's open transaction keeps the
   * locks its successor waits on.
   */
  void targetIdleTransactionTimeout(Duration timeout) {
    applierKeys = ", idleTransactionTimeout: " + timeout.toSeconds() + "s";
  }

  /** The running relay (replaced by {@link #restartRelay}). */
  Relay relay() {
    return relay;
  }

  /** Stops the relay as a clean shutdown would (its position file written last). */
  void stopRelay() {
    if (relayRunning) {
      relayRunning = false;
      relay.close();
    }
  }

  /** Starts a new relay on the same file and port (it resumes from its position file, if it has one). */
  Relay restartRelay() throws Exception {
    stopRelay();
    relay = new Relay(RelayConfig.parse(relayYaml.formatted(relayPort), "restarted relay"), Clock.systemUTC());
    relay.start();
    relayRunning = true;
    return relay;
  }

  /**
   * Starts a new relay on the same port as one set up without a position file and with {@code start: end}: it begins
   * at the binlog's end now, whatever an earlier relay had read.
   */
  Relay restartRelayAtEndWithoutPosition() throws Exception {
    stopRelay();
    relay = new Relay(RelayConfig.parse(relayYaml(false, "end", source.port()).formatted(relayPort), "relay started at end"),
        Clock.systemUTC());
    relay.start();
    relayRunning = true;
    return relay;
  }

  /**
   * What the operator does once the source has purged the binlog past a relay's position (the relay's ERROR line says
   * so): moves the relay's position file aside and starts it from {@code start} ({@code earliest} or {@code end}) on the
   * same port and with the same position file setting, kept for later restarts. A consumer whose checkpoint lies
   * before the new start is then answered 410 and, with {@code onEvicted: snapshot}, re-seeds.
   */
  Relay restartRelayAfterPurge(String start) throws Exception {
    stopRelay();
    Path position = dir.resolve("relay.position");
    if (Files.exists(position)) {
      Files.move(position, dir.resolve("relay.position.purged"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    relayYaml = relayYaml(relayPositionFile, start, source.port());
    return restartRelay();
  }

  /**
   * Starts a new relay, as set up, that reads the source through {@code sourcePort} (a proxy's port on the source's
   * host), and keeps it for later restarts. Before any transaction reached the target, so that it makes no gap.
   */
  Relay readSourceThrough(int sourcePort) throws Exception {
    relayYaml = relayYaml(relayPositionFile, relayStart, sourcePort);
    return restartRelay();
  }

  /**
   * Starts a second relay replica of the source, as the first was set up but without a position file, on a port of its
   * own (its {@link Relay#port()}); {@link #close()} stops it.
   */
  Relay startAnotherRelay(String name) throws Exception {
    Relay another = new Relay(RelayConfig.parse(relayYaml(false, relayStart, source.port()).formatted(0), name),
        Clock.systemUTC());
    moreRelays.add(another);
    another.start();
    return another;
  }

  /** The consumer started last (null before {@link #startConsumer}). */
  Process consumer() {
    return consumer;
  }

  /** What the consumer has written to its output so far. */
  String consumerOutput() throws java.io.IOException {
    return Files.readString(dir.resolve("consumer.log"));
  }

  /** Rounds per scenario: a few by default, 20 under {@code -Pchaos} (it sets {@code gridway.long}). */
  static int rounds(int byDefault) {
    return Boolean.getBoolean("gridway.long") ? 20 : byDefault;
  }

  /** The target's JDBC URL, its port replaced by {@code port} (a proxy's). */
  String targetUrl(int port) {
    return target.jdbcUrl(port);
  }

  /** The relay at its own address. */
  URI relayUri() {
    return URI.create("http://127.0.0.1:" + relayPort);
  }

  /** Starts the consumer (group {@code faults}, partition 0) and waits until it serves its metrics. */
  void startConsumer(URI relayUri, String targetUrl, String extraPullYaml) throws Exception {
    startConsumer(relayUri, targetUrl, extraPullYaml, "partitions: [0]", "");
  }

  /**
   * Starts the consumer and waits until it serves its metrics.
   *
   * @param extraPullYaml more keys of {@code pull}, each after ", "
   * @param consumerYaml more keys of {@code consumer}, one line (e.g. its partitions)
   * @param topYaml more top-level sections (e.g. {@code cluster}), or ""
   */
  void startConsumer(URI relayUri, String targetUrl, String extraPullYaml, String consumerYaml, String topYaml)
      throws Exception {
    startConsumer("consumer", relayUri, targetUrl, extraPullYaml, consumerYaml, topYaml);
  }

  /**
   * As above, a consumer of its own {@code name} (its files {@code <name>.yml} and {@code <name>.log}, the output of
   * each start appended); {@link #consumer()} and {@link #metric(String)} then speak of it.
   */
  void startConsumer(String name, URI relayUri, String targetUrl, String extraPullYaml, String consumerYaml,
      String topYaml) throws Exception {
    startConsumer(name, relayUri, targetUrl, extraPullYaml, consumerYaml, topYaml, null);
  }

  /**
   * As above, the consumer running inside network namespace {@code ns} (a host of its own: the relay, target and
   * ZooKeeper addresses given must be reachable from there, e.g. proxies on {@link NetworkNamespace#hostAddress()}),
   * its metrics served on the namespace's address.
   */
  void startConsumer(String name, URI relayUri, String targetUrl, String consumerYaml, String topYaml,
      NetworkNamespace ns) throws Exception {
    startConsumer(name, relayUri, targetUrl, "", consumerYaml, topYaml, ns);
  }

  private void startConsumer(String name, URI relayUri, String targetUrl, String extraPullYaml, String consumerYaml,
      String topYaml, NetworkNamespace ns) throws Exception {
    Path config = dir.resolve(name + ".yml");
    Files.writeString(config, """
        consumer:
          source: src
          group: faults
          relays: [%s]
          %s
          pull: {waitTime: 200ms, backoff: 20ms%s}
          batch: {maxEvents: 300, maxWait: 5ms, maxInFlight: 3}
          retry: {backoff: 100ms, maxBackoff: 1s}
        applier:
          type: jdbc
          jdbc: {url: "%s", user: %s, passwordEnv: FAULT_TARGET_PASSWORD, schemaChange: stop%s}
        http: {host: %s, port: 0}
        %s
        """.formatted(relayUri, consumerYaml, extraPullYaml, targetUrl, target.user(), applierKeys,
        ns == null ? "127.0.0.1" : ns.address(), topYaml));
    Path log = dir.resolve(name + ".log");
    long before = Files.exists(log) ? Files.size(log) : 0;
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        ConsumerMain.class.getName(), "--config", config.toString());
    ProcessBuilder builder = new ProcessBuilder(ns == null ? command : ns.command(command))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().put("FAULT_TARGET_PASSWORD", target.password());
    Process process = builder.start();
    processes.add(process);
    consumer = process;
    consumers.put(name, process);
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
        .until(() -> !process.isAlive() || HTTP_LINE.matcher(output(log, before)).find());
    Matcher m = HTTP_LINE.matcher(output(log, before));
    if (!process.isAlive() || !m.find()) {
      throw new IllegalStateException("consumer " + name + " did not start; its log:\n" + Files.readString(log));
    }
    metricsHost = m.group(1);
    metricsPort = Integer.parseInt(m.group(2));
    metricsPorts.put(name, metricsPort);
    metricsHosts.put(name, metricsHost);
  }

  private static String output(Path log, long from) throws java.io.IOException {
    String all = Files.readString(log);
    return all.substring((int) Math.min(from, all.length()));
  }

  /** The consumer started last under {@code name}. */
  Process consumer(String name) {
    return consumers.get(name);
  }

  /** What consumer {@code name} has written to its output so far, over all its starts. */
  String consumerOutput(String name) throws java.io.IOException {
    return Files.readString(dir.resolve(name + ".log"));
  }

  /** As {@link #metric(String)}, from consumer {@code consumer}'s /metrics. */
  double metric(String consumer, String name) throws Exception {
    return metric(metricsHosts.get(consumer), metricsPorts.get(consumer), name);
  }

  /** The sum over all tags of a metric from the consumer's /metrics (Prometheus name), 0 when absent. */
  double metric(String name) throws Exception {
    return metric(metricsHost, metricsPort, name);
  }

  private double metric(String host, int port, String name) throws Exception {
    String body = http.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/metrics"))
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
    return Long.parseLong(SqlRows.of(target.connect(), "SELECT count(*) FROM " + target.table("audit")).get(0));
  }

  /** Rows in the source's keyless table. */
  long sourceAuditRows() throws Exception {
    return Long.parseLong(SqlRows.of(sourceDb.connect(), "SELECT count(*) FROM audit").get(0));
  }

  /**
   * The scenario's recovery time, called right after its fault has healed: lets the writer write 10 transactions more
   * and waits until the target holds every audit row the source holds by then — all written before the fault and new
   * ones written after it have gone through the whole path.
   */
  Duration awaitRecovered(String what) throws Exception {
    long began = System.nanoTime();
    long goal = sourceAuditRows() + 10; // each transaction writes one audit row or more
    writer.allow(10);
    await(what).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> targetAuditRows() >= goal);
    return Duration.ofNanos(System.nanoTime() - began);
  }

  /** Target = source for every workload table, the keyless one exactly, and its rows applied in commit order. */
  ReplicaVerifier verifier() {
    String mts = "DATE_FORMAT(%s, '%%Y-%%m-%%d %%H:%%i:%%s.%%f')";
    return ReplicaVerifier.between(sourceDb::connect, target::connect)
        .table("accounts", "SELECT id, owner, balance, " + mts.formatted("updated") + " FROM accounts",
            "SELECT id, owner, balance, " + target.timestamp("updated") + " FROM " + target.table("accounts"))
        .table("orders", "SELECT id, account, note, qty FROM orders",
            "SELECT id, account, note, qty FROM " + target.table("orders"))
        .table("order_lines", "SELECT order_id, line, sku, price FROM order_lines",
            "SELECT order_id, line, sku, price FROM " + target.table("order_lines"))
        .appendOnly("audit", "SELECT seq, tx, what, " + mts.formatted("at") + " FROM audit",
            "SELECT seq, tx, what, " + target.timestamp("at") + " FROM " + target.table("audit"))
        // One partition: the whole keyless table is one key, its seq the source's commit order.
        .order("audit", "SELECT 'all', seq FROM " + target.table("audit") + " ORDER BY applied");
  }

  /**
   * Ends a scenario: the writer finishes, the target must match the source within 2 minutes, and one line goes to the
   * output for {@code docs/reliability.md} (lost and duplicated are 0 when the verifier passes: it fails the test
   * otherwise, naming them).
   */
  void verifyAndReport(String scenario, int rounds, Duration worstRecovery, long started) throws Exception {
    writer.finish();
    verifier().awaitMatches(Duration.ofSeconds(120));
    System.out.printf("reliability | %s | %d | 0 | 0 | %.1f s | %d source transactions, seed %d, %.1f s in all%n",
        scenario, rounds, worstRecovery.toMillis() / 1000.0, writer.transactions(), seed,
        (System.nanoTime() - started) / 1e9);
  }

  @Override
  public void close() {
    processes.forEach(Process::destroyForcibly);
    writer.close();
    stopRelay();
    moreRelays.forEach(Relay::close);
    target.close();
    closeSource();
  }

  private Connection connectSource() throws java.sql.SQLException {
    return pair != null ? pair.connectToPrimary(database) : source.connect(database);
  }

  private void closeSource() {
    if (pair != null) {
      pair.close();
    } else if (dedicatedSource) {
      source.close();
    }
  }
}
