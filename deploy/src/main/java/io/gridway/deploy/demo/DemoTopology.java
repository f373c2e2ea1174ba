package io.gridway.deploy.demo;

import io.gridway.admin.AdminService;
import io.gridway.admin.AdminSettings;
import io.gridway.cluster.EmbeddedZooKeeperServer;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.service.ConsumerService;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.service.ServiceConfig;
import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.relay.RelayService;
import io.gridway.testkit.NativeDatabase;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.tls.ServerTlsSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Everything {@code gridway demo} runs, started in dependency order and stopped in reverse: a private MariaDB with
 * the binlog on (the source) and a private PostgreSQL (the target), both from the installed server binaries (the
 * test kit's fixtures); an embedded ZooKeeper and the admin service ({@code gridway admin}), which hosts the cluster's
 * one Helix controller; a relay on the MariaDB (the composition
 * {@code gridway relay} runs, from a YAML file); and consumers in one Helix consumer group applying to PostgreSQL
 * exactly-once (each a {@link ConsumerService}, as {@code gridway consumer} runs it, from its YAML file). Its
 * files live in one directory.
 *
 * <p>With {@link DemoPki} ({@code --tls}) every hop is TLS: the MariaDB accepts only TLS and the relay checks its
 * certificate and name; the relay serves HTTPS with mutual TLS and a bearer token; the consumers write PostgreSQL
 * (TLS only) with {@code sslmode=verify-full}; ZooKeeper's one port is TLS with client certificates; the admin
 * service serves HTTPS.
 *
 * <p>Not thread-safe: one thread starts and closes it; the getters may be read from others.
 */
final class DemoTopology implements AutoCloseable {
  static final String CLUSTER = "gridway-demo";
  static final String GROUP = "demo";
  static final String CONTROLLER = "demo-controller";
  private static final Duration RELAY_START_TIMEOUT = Duration.ofSeconds(60);

  /** One consumer service and the registry its meters are in (the live view reads lag and counts there). */
  record DemoConsumer(String name, ConsumerService service, SimpleMeterRegistry meters, Path config) {}

  private final Path dir;
  private final Consumer<String> progress;
  private final DemoPki pki; // null: plain TCP everywhere
  private final List<AutoCloseable> started = new ArrayList<>(); // closed in reverse order
  private PrivateMariaDb source;
  private PrivatePostgres target;
  private String targetDatabase;
  private Path sourcePasswordFile;
  private EmbeddedZooKeeperServer zk;
  private AdminService admin;
  private RelayService relay;
  private String relayUrl;
  private Path relayConfig;
  private final List<DemoConsumer> consumers = new ArrayList<>();

  private DemoTopology(Path dir, DemoPki pki, Consumer<String> progress) {
    this.dir = dir;
    this.pki = pki;
    this.progress = progress;
  }

  /**
   * Starts everything; on failure closes what started and rethrows.
   *
   * @param pki the certificates and token for TLS on every hop; null for plain TCP
   * @param progress told what starts, one line each (the first start of the servers takes seconds)
   */
  static DemoTopology start(Path dir, int partitions, int consumerCount, DemoPki pki, Consumer<String> progress)
      throws Exception {
    DemoTopology topology = new DemoTopology(dir, pki, progress);
    try {
      topology.startDatabases();
      topology.startCluster();
      topology.startRelay(partitions);
      for (int i = 1; i <= consumerCount; i++) {
        topology.startConsumer("consumer-" + i, partitions);
      }
      return topology;
    } catch (Exception | Error e) {
      topology.close();
      throw e;
    }
  }

  private void startDatabases() throws SQLException, IOException {
    String tls = pki == null ? "" : ", TLS only";
    progress.accept("starting a private MariaDB (the source, binlog on" + tls + ") ...");
    source = launch("MariaDB (the source)",
        pki == null ? PrivateMariaDb::dedicated : () -> PrivateMariaDb.dedicatedWithTls(pki.mariaDbFiles()));
    source.execute("", DemoSchema.mariaDbDdl().toArray(String[]::new));
    if (pki != null) {
      sourcePasswordFile = DemoConfigs.secret(dir.resolve("mariadb-root.pw"), source.rootPassword());
    }
    progress.accept("starting a private PostgreSQL (the target" + tls + ") ...");
    target = launch("PostgreSQL (the target)",
        pki == null ? PrivatePostgres::dedicated : () -> PrivatePostgres.dedicatedWithTls(pki.postgresFiles()));
    targetDatabase = target.createDatabase("demo");
    target.execute(targetDatabase, DemoSchema.postgresDdl().toArray(String[]::new));
  }

  private <T extends NativeDatabase> T launch(String what, java.util.function.Supplier<T> start) {
    T db;
    try {
      db = start.get();
    } catch (IllegalStateException | java.io.UncheckedIOException e) {
      // the test kit names the Debian package when the server binaries are missing
      throw new DemoException("cannot start the private " + what + ": " + e.getMessage(), e);
    }
    started.add(db);
    return db;
  }

  /**
   * ZooKeeper, then the admin service: it hosts the Helix controller (as {@code gridway admin} does), so the demo runs
   * one controller, not a second one beside it. Any free port on loopback; its first admin credential goes to a file
   * in the demo's directory, as the admin service always does (never printed).
   */
  private void startCluster() throws InterruptedException {
    progress.accept("starting ZooKeeper and the admin service (Helix controller, REST API, web UI) ...");
    zk = EmbeddedZooKeeperServer.start(ZkConfig.embedded(dir.resolve("zookeeper"), 0)
        .withTls(pki == null ? null : pki.zkTls()));
    started.add(zk);
    ServerTlsSettings https = pki == null ? null
        : ServerTlsSettings.pem(pki.admin().certFile().toString(), pki.admin().keyFile().toString(), null);
    admin = AdminService.start(new AdminSettings(zk.clientConfig(), CLUSTER, CONTROLLER, AdminSettings.DEFAULT_HOST, 0,
        dir.resolve("admin"), null, null), Clock.systemUTC(), https, System.getenv());
    started.add(admin);
  }

  private void startRelay(int partitions) throws Exception {
    progress.accept("starting the relay on the MariaDB binlog ...");
    Path password = DemoConfigs.secret(dir.resolve("mariadb.pw"), source.replicationPassword());
    relayConfig = DemoConfigs.relay(dir, new DemoConfigs.Source(source.host(), source.port(), source.replicationUser(),
        password, binlogEnd()), partitions, pki);
    // as gridway relay does: the relay's one composition, from its YAML file
    relay = RelayService.create(RelayConfig.load(relayConfig), Clock.systemUTC());
    started.add(relay);
    relayUrl = (pki == null ? "http" : "https") + "://127.0.0.1:" + relay.start().getPort();
    awaitHealthy(relayUrl);
  }

  /**
   * Until the relay's {@code /health} says 200 (it reads the binlog): a consumer checks its relays once at start
   * with a short timeout, which a relay still warming up on a loaded machine can miss.
   */
  private void awaitHealthy(String url) throws IOException, InterruptedException {
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    if (pki != null) {
      builder.sslContext(pki.clientContext()); // /health needs no token, but the relay wants a client certificate
    }
    HttpClient client = builder.build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/health")).timeout(Duration.ofSeconds(10)).build();
    long deadline = System.nanoTime() + RELAY_START_TIMEOUT.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> health = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() == 200) {
          return;
        }
        last = health.statusCode() + " " + health.body();
      } catch (HttpTimeoutException e) {
        last = "timed out";
      }
      Thread.sleep(200);
    }
    throw new DemoException("the relay did not become healthy within " + RELAY_START_TIMEOUT.toSeconds() + " s: "
        + url + "/health answers " + last);
  }

  /** {@code file:offset} of the source's binlog end now: the relay starts there, after the tables' DDL. */
  private String binlogEnd() throws SQLException {
    try (Connection c = source.connect(""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      if (!rs.next()) {
        throw new DemoException("the private MariaDB has no binlog (SHOW MASTER STATUS is empty)");
      }
      return rs.getString(1) + ":" + rs.getLong(2);
    }
  }

  private void startConsumer(String name, int partitions) throws Exception {
    progress.accept("starting " + name + " (JDBC applier to PostgreSQL, group " + GROUP + ") ...");
    Path config = DemoConfigs.consumer(dir, name, relayUrl, zk.connectString(), GROUP, partitions,
        new DemoConfigs.Target(targetJdbcUrl(), target.user()), pki);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    // as gridway consumer does: one ConsumerService from its YAML file
    ConsumerService service = ConsumerService.create(ConfigLoader.load(config, ServiceConfig.class), meters);
    started.add(service);
    service.start();
    consumers.add(new DemoConsumer(name, service, meters, config));
  }

  /** How many partitions of the group some consumer runs now (all of them once Helix has assigned them). */
  int runningPartitions() {
    return (int) consumers.stream().flatMap(c -> c.service().statuses().values().stream())
        .filter(s -> s.state() == PartitionStatus.State.RUNNING).map(PartitionStatus::partition).distinct().count();
  }

  PrivateMariaDb source() {
    return source;
  }

  PrivatePostgres target() {
    return target;
  }

  String targetDatabase() {
    return targetDatabase;
  }

  /** The source's JDBC URL for a user: with TLS, checking the server's certificate against the demo's CA. */
  String sourceJdbcUrl() {
    return pki == null ? source.jdbcUrl(DemoSchema.DATABASE)
        : "jdbc:mariadb://127.0.0.1:" + source.port() + "/" + DemoSchema.DATABASE + "?sslMode=verify-full&serverSslCert="
            + pki.caFile();
  }

  /** The target's JDBC URL as the consumers use it: with TLS, {@code verify-full} against the demo's CA. */
  String targetJdbcUrl() {
    return pki == null ? target.jdbcUrl(targetDatabase)
        : "jdbc:postgresql://127.0.0.1:" + target.port() + "/" + targetDatabase + "?sslmode=verify-full&sslrootcert="
            + pki.caFile();
  }

  /** The file with the source's root password (with TLS: the demo then shows no password); null without TLS. */
  Path sourcePasswordFile() {
    return sourcePasswordFile;
  }

  /** The certificates and token of a {@code --tls} run; null without TLS. */
  DemoPki pki() {
    return pki;
  }

  Connection connectSource() throws SQLException {
    return source.connect(DemoSchema.DATABASE);
  }

  Connection connectTarget() throws SQLException {
    return target.connect(targetDatabase);
  }

  Relay relay() {
    return relay.relay();
  }

  String relayUrl() {
    return relayUrl;
  }

  Path relayConfig() {
    return relayConfig;
  }

  /** The admin service's {@code http://127.0.0.1:port/} ({@code https://} with TLS). */
  String adminUrl() {
    return admin.url();
  }

  /** The file with the first admin's password. */
  Path adminPasswordFile() {
    return admin.initialPasswordFile();
  }

  String zkConnectString() {
    return zk.connectString();
  }

  List<DemoConsumer> consumers() {
    return List.copyOf(consumers);
  }

  /**
   * Copies the stopped servers' data directories into {@code dir} ({@code mariadb-data/}, {@code
   * postgresql-data/}): closing a private server deletes its own copy.
   */
  void keepDatabases() throws IOException {
    for (AutoCloseable c : List.copyOf(started)) {
      if (c instanceof NativeDatabase db) {
        db.stop();
        copyTree(db.dataDir(), dir.resolve(db == source ? "mariadb-data" : "postgresql-data"));
      }
    }
  }

  /**
   * Stops everything that started: the admin service and its controller first (so a consumer leaving does not make
   * Helix hand its partitions to the other one), then newest first: consumers (each releases its partitions, recording
   * their checkpoints), relay, ZooKeeper, the servers.
   */
  @Override
  public void close() {
    RuntimeException first = null;
    List<AutoCloseable> order = new ArrayList<>(started.stream().filter(c -> c instanceof AdminService).toList());
    for (int i = started.size() - 1; i >= 0; i--) {
      if (!(started.get(i) instanceof AdminService)) {
        order.add(started.get(i));
      }
    }
    for (int i = 0; i < order.size(); i++) {
      try {
        order.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = new IllegalStateException("cannot stop " + order.get(i) + ": " + e.getMessage(), e);
        }
      }
    }
    started.clear();
    if (first != null) {
      throw first;
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
        Files.createDirectories(to.resolve(from.relativize(d).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
        if (attrs.isRegularFile()) {
          Files.copy(f, to.resolve(from.relativize(f).toString()));
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
