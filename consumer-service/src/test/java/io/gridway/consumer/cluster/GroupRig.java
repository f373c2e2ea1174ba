package io.gridway.consumer.cluster;

import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.ClusterStatusReader;
import io.gridway.cluster.ZkCheckpointStore;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.service.ConsumerMain;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.testkit.EmbeddedZooKeeper;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The processes of a cluster-mode deployment on one machine: an embedded ZooKeeper (in the test JVM, so it
 * can be stopped and started), a relay JVM reading the private MariaDB's binlog ({@code source: mysql}, a
 * fetch policy hashing keys over {@link #PARTITIONS} partitions), Helix controller JVMs and consumer JVMs
 * ({@link ConsumerMain} with a {@code cluster:} section) in one group, applying either to the private
 * PostgreSQL through the JDBC applier (exactly-once, checkpoints in the target) or to a JSON-lines log per
 * consumer run (at-least-once, checkpoints in ZooKeeper). Logs and configs stay under {@code target/}.
 *
 * <p>Not thread-safe: one test drives it.
 */
final class GroupRig implements AutoCloseable {
  static final int PARTITIONS = 12;
  static final String SOURCE = "src";
  static final String CLUSTER = "gw";
  private static final Pattern CONSUMER_READY = Pattern.compile("gridway consumer started");
  private static final Pattern RELAY_READY = Pattern.compile("gridway relay listening on http://[^:]+:(\\d+)");
  private static final Duration STABLE = Duration.ofMillis(500);
  private static final AtomicLong SERVER_IDS = new AtomicLong(9000 + (ProcessHandle.current().pid() % 1000) * 20);

  /** A partition's shared checkpoint and the newest generation claimed for it. */
  record Progress(long scn, long generation) {}

  final String group;
  final boolean exactlyOnce;
  final Duration sessionTimeout;
  final Path dir;
  final EmbeddedZooKeeper zk = EmbeddedZooKeeper.dedicated();
  final PrivateMariaDb mariaDb = PrivateMariaDb.shared();
  final PrivatePostgres postgres = PrivatePostgres.shared();
  final String sourceDb;
  final String targetDb;
  private final Map<String, JvmProcess> controllers = new LinkedHashMap<>();
  private final Map<String, JvmProcess> consumers = new TreeMap<>();
  private final Map<String, Integer> runs = new HashMap<>();
  private final List<String> supervisorRestarts = new ArrayList<>();
  private JvmProcess relay;
  private int relayPort;
  private ClusterStatusReader status;
  private ZkCheckpointStore zkCheckpoints;
  /** More lines of each consumer's {@code consumer:} section ({@code start: snapshot}, …), each indented by two. */
  private String consumerLines = "";
  /** More top-level lines of the relay's config (a {@code snapshot:} section, …). */
  private String relayLines = "";

  GroupRig(String group, boolean exactlyOnce, Duration sessionTimeout) throws Exception {
    this.group = group;
    this.exactlyOnce = exactlyOnce;
    this.sessionTimeout = sessionTimeout;
    this.dir = Files.createDirectories(Path.of("target", "cluster-" + group + "-" + System.currentTimeMillis()));
    this.sourceDb = mariaDb.createDatabase(group);
    SourceWorkload.createTables(mariaDb, sourceDb);
    this.targetDb = exactlyOnce ? postgres.createDatabase(group) : null;
    if (exactlyOnce) {
      prepareTarget();
    }
  }

  /** The target's tables, and {@code applied_log}: one row per row change the target saw, written by triggers. */
  private void prepareTarget() throws SQLException {
    String schema = "\"" + sourceDb + "\"";
    List<String> sql = new ArrayList<>(List.of("CREATE SCHEMA " + schema,
        "CREATE TABLE public.applied_log (tbl TEXT NOT NULL, id BIGINT NOT NULL, op TEXT NOT NULL)", """
        CREATE FUNCTION public.log_change() RETURNS trigger AS $$
        BEGIN
          INSERT INTO public.applied_log VALUES (TG_TABLE_NAME, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END, TG_OP);
          RETURN NULL;
        END $$ LANGUAGE plpgsql"""));
    for (String t : SourceWorkload.TABLES) {
      sql.add("CREATE TABLE " + schema + "." + t + " (id BIGINT PRIMARY KEY, v VARCHAR(64) NOT NULL, n INT NOT NULL, "
          + "amount NUMERIC(12,2) NOT NULL)");
      sql.add("CREATE TRIGGER log AFTER INSERT OR UPDATE OR DELETE ON " + schema + "." + t
          + " FOR EACH ROW EXECUTE FUNCTION public.log_change()");
    }
    postgres.execute(targetDb, sql.toArray(String[]::new));
  }

  ZkConfig zkConfig() {
    return ZkConfig.external(zk.connectString()).withSessionTimeout(sessionTimeout);
  }

  /** The relay JVM, reading the binlog from its end now. */
  void startRelay() throws Exception {
    String start;
    try (Connection c = mariaDb.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      start = rs.getString(1) + ":" + rs.getLong(2);
    }
    Path password = dir.resolve("repl.pw");
    Files.writeString(password, mariaDb.replicationPassword() + "\n");
    Path policy = dir.resolve("fetch.yaml");
    Files.writeString(policy, """
        name: %s-fetch
        version: 1
        include: ['%s.*']
        rules:
          - name: by-key
            tables: ['%s.*']
            partition: {key-hash: %d}
        """.formatted(group, sourceDb, sourceDb, PARTITIONS));
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, """
        source:
          partitions: %d
          mysql:
            source: %s
            host: %s
            port: %d
            user: %s
            passwordFile: %s
            serverId: %d
            start: %s
            include: ['%s.*']
            heartbeatInterval: 300ms
            reconnectBackoffMax: 300ms
        policy:
          files: [%s]
        buffer: {capacity: 64MiB, maxWindow: 4MiB}
        http:
          port: 0
          ioThreads: 1
        %s""".formatted(PARTITIONS, SOURCE, mariaDb.host(), mariaDb.port(), mariaDb.replicationUser(), password,
        SERVER_IDS.incrementAndGet(), start, sourceDb, policy, relayLines));
    relay = JvmProcess.start("relay", dir.resolve("relay.log"), RELAY_READY, "io.gridway.relay.RelayMain", config.toString());
    relayPort = Integer.parseInt(relay.lastMatch(RELAY_READY));
  }

  JvmProcess startController(String name) throws IOException {
    JvmProcess controller = JvmProcess.start(name, dir.resolve(name + ".log"), Pattern.compile("controller " + name + " started"),
        ControllerProcessMain.class.getName(), zk.connectString(), CLUSTER, name, Long.toString(sessionTimeout.toMillis()));
    controllers.put(name, controller);
    return controller;
  }

  JvmProcess controller(String name) {
    return controllers.get(name);
  }

  void relayLines(String lines) {
    this.relayLines = lines;
  }

  void consumerLines(String lines) {
    this.consumerLines = lines;
  }

  /** The group's checkpoints in ZooKeeper (at-least-once). */
  ZkCheckpointStore zkCheckpoints() {
    if (zkCheckpoints == null) {
      zkCheckpoints = ZkCheckpointStore.open(zkConfig(), CLUSTER, Clock.systemUTC());
    }
    return zkCheckpoints;
  }

  /** Starts (or restarts) consumer {@code instance}: a new run with its own log and, at-least-once, its own output. */
  JvmProcess startConsumer(String instance) throws IOException {
    int run = runs.merge(instance, 1, Integer::sum);
    Path config = dir.resolve(instance + ".yaml");
    String applier = exactlyOnce ? """
        applier:
          type: jdbc
          jdbc: {url: "%s", user: %s, poolSize: 6, schemaChange: stop, idleTransactionTimeout: 5s}
        """.formatted(postgres.jdbcUrl(targetDb), postgres.user())
        : """
        applier:
          logging: {output: %s}
        """.formatted(output(instance, run));
    Files.writeString(config, """
        consumer:
          source: %s
          group: %s
          relays: [http://127.0.0.1:%d]
          pull: {waitTime: 200ms, backoff: 50ms}
          batch: {maxEvents: 500, maxWait: 5ms, maxInFlight: 2}
        %s%scluster:
          zk: %s
          name: %s
          instance: %s
          partitions: %d
          replicas: 2
          endpoint: http://127.0.0.1:1
          sessionTimeout: %dms
        http: {port: 0}
        """.formatted(SOURCE, group, relayPort, consumerLines, applier, zk.connectString(), CLUSTER, instance, PARTITIONS,
        sessionTimeout.toMillis()));
    JvmProcess consumer = JvmProcess.start(instance, consumerLog(instance), CONSUMER_READY,
        ConsumerMain.class.getName(), "--config", config.toString());
    consumers.put(instance, consumer);
    return consumer;
  }

  /** The log of every run of a consumer. */
  Path consumerLog(String instance) {
    return dir.resolve(instance + ".log");
  }

  /** The JSON-lines file of a consumer's run (at-least-once). */
  Path output(String instance, int run) {
    return dir.resolve(instance + "-" + run + ".jsonl");
  }

  Map<String, Integer> runs() {
    return Map.copyOf(runs);
  }

  JvmProcess consumer(String instance) {
    return consumers.get(instance);
  }

  Set<String> consumerNames() {
    return consumers.keySet();
  }

  ClusterStatus status() {
    if (status == null) {
      status = new ClusterStatusReader(zkConfig(), CLUSTER);
    }
    return status.read();
  }

  /** Instance → the partitions it leads now (Helix's external view); every live consumer appears. */
  Map<String, Set<Integer>> leaders() {
    Map<String, Set<Integer>> out = new TreeMap<>();
    ClusterStatus s = status();
    for (ClusterStatus.Instance i : s.instances()) {
      if (i.live() && i.tags().contains("group." + group)) {
        out.put(i.name(), new TreeSet<>());
      }
    }
    for (ClusterStatus.Resource r : s.resources()) {
      if (r.name().equals("group." + group)) {
        for (ClusterStatus.Partition p : r.partitionStates()) {
          p.states().forEach((instance, state) -> {
            if (state.equals("LEADER")) {
              out.computeIfAbsent(instance, k -> new TreeSet<>()).add(p.partition());
            }
          });
        }
      }
    }
    return out;
  }

  /**
   * Does what systemd's {@code Restart=on-failure} does for a consumer that exited on its own (not killed by the
   * test): a consumer whose session expired under load and whose checkpoint was then fenced exits 1 by design.
   */
  private void supervise() throws IOException {
    for (Map.Entry<String, JvmProcess> e : List.copyOf(consumers.entrySet())) {
      if (e.getValue().exitedOnItsOwn()) {
        String run = e.getKey() + "-" + runs.get(e.getKey());
        supervisorRestarts.add(run);
        System.out.println("supervisor: " + run + " exited with " + e.getValue().process().exitValue() + ": "
            + e.getValue().lastMatch(Pattern.compile("(partition \\d+ failed: [^\\n]*)")) + "; restarting it");
        startConsumer(e.getKey());
      }
    }
  }

  /** The consumer runs ({@code instance-run}) that exited on their own and were restarted as a supervisor would. */
  List<String> supervisorRestarts() {
    return List.copyOf(supervisorRestarts);
  }

  /** Instance → how many partitions it leads. */
  Map<String, Integer> spread() {
    Map<String, Integer> out = new TreeMap<>();
    leaders().forEach((k, v) -> out.put(k, v.size()));
    return out;
  }

  /** Every partition's shared checkpoint and generation: in the target (exactly-once) or in ZooKeeper. */
  Map<Integer, Progress> progress() throws SQLException {
    Map<Integer, Progress> out = new TreeMap<>();
    if (exactlyOnce) {
      try (Connection c = postgres.connect(targetDb); PreparedStatement ps = c.prepareStatement(
          "SELECT \"partition\", scn, generation FROM gridway_checkpoint WHERE \"group\" = ? AND micro_partition = -1")) {
        ps.setString(1, group);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.put(rs.getInt(1), new Progress(rs.getLong(2), rs.getLong(3)));
          }
        }
      } catch (SQLException e) {
        if (e.getMessage().contains("gridway_checkpoint")) {
          return out; // not created yet
        }
        throw e;
      }
    } else {
      for (int p = 0; p < PARTITIONS; p++) {
        long scn = zkCheckpoints().read(group, p).stream().filter(Checkpoint::isWhole).mapToLong(c -> c.scn().value())
            .findFirst().orElse(0);
        Long generation = zkCheckpoints().generation(group, p).orElse(null);
        if (generation != null) {
          out.put(p, new Progress(scn, generation));
        }
      }
    }
    return out;
  }

  /**
   * Waits until each of {@code partitions} has been claimed again since {@code before} and its checkpoint has
   * moved past it: a new owner is applying it. Returns when that was seen.
   */
  long awaitApplyingAgain(Set<Integer> partitions, Map<Integer, Progress> before, Duration atMost) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> {
      Map<Integer, Progress> now = progress();
      for (int p : partitions) {
        Progress was = before.getOrDefault(p, new Progress(-1, 0));
        Progress is = now.get(p);
        if (is == null || is.generation() <= was.generation() || is.scn() <= was.scn()) {
          return false;
        }
      }
      return true;
    });
    return System.nanoTime();
  }

  /**
   * Waits until the live consumers lead {@code expected} partitions each, the same partitions for half a second
   * (Helix may still be finishing a rebalance that passes through the expected counts), and returns who leads what.
   */
  Map<String, Set<Integer>> awaitSpread(Map<String, Integer> expected, Duration atMost) {
    Map<String, Set<Integer>> seen = new TreeMap<>();
    Map<String, Set<Integer>> last = new TreeMap<>();
    long[] since = {0};
    await().atMost(atMost).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
        .conditionEvaluationListener(e -> {
          if (e.getRemainingTimeInMS() <= 0) {
            System.out.println("spread " + expected + " not reached; last placement " + last);
          }
        }).until(() -> {
      supervise();
      Map<String, Set<Integer>> now = leaders();
      last.clear();
      last.putAll(now);
      Map<String, Integer> counts = new TreeMap<>();
      now.forEach((k, v) -> counts.put(k, v.size()));
      if (!counts.equals(expected)) {
        seen.clear();
        return false;
      }
      if (!now.equals(seen)) {
        seen.clear();
        seen.putAll(now);
        since[0] = System.nanoTime();
      }
      return System.nanoTime() - since[0] >= STABLE.toNanos();
    });
    return seen;
  }

  int relayPort() {
    return relayPort;
  }

  @Override
  public void close() {
    List<AutoCloseable> all = new ArrayList<>(consumers.values());
    all.addAll(controllers.values());
    if (relay != null) {
      all.add(relay);
    }
    if (status != null) {
      all.add(status);
    }
    if (zkCheckpoints != null) {
      all.add(zkCheckpoints);
    }
    all.add(zk);
    Exception first = null;
    for (AutoCloseable c : all) {
      try {
        c.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw new IllegalStateException("closing the rig: " + first.getMessage(), first);
    }
  }
}
