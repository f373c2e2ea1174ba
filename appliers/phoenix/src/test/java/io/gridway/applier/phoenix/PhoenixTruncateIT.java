package io.gridway.applier.phoenix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.service.ConsumerMain;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.net.URI;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TRUNCATE in rows mode through MariaDB binlog → relay → {@code gridway consumer} (own JVM) → Phoenix: a writer
 * inserts, updates and deletes rows of a keyed table (reusing keys a TRUNCATE freed) and a keyless one, and truncates
 * them now and then while it keeps writing; the relay copies each TRUNCATE to every partition. K = 1 (one partition)
 * and K = 4 (four partitions applied concurrently, two micro-batch lanes each), the consumer SIGKILLed twice (10 times
 * under {@code -Pchaos}) at seeded random moments and restarted. At the end every Phoenix view equals its source table
 * row for row ({@link PhoenixRows}): each TRUNCATE removed exactly the rows older than it, in whichever partition and
 * however often it was applied. The seed is printed; {@code -Dgridway.seed=} repeats a run.
 */
@Timeout(1500)
class PhoenixTruncateIT {
  private static final List<String> TABLES = List.of("items", "notes", "ticks");
  /** Kill rounds: 2, or 10 under {@code -Pchaos}. */
  private static final int KILLS = Boolean.getBoolean("gridway.long") ? 10 : 2;

  private final Path dir = Path.of("target", "phoenix-truncate-" + System.nanoTime());
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    processes.forEach(Process::destroyForcibly);
  }

  @Test
  void onePartitionKilledAtRandomEndsEqualToTheSource() throws Exception {
    run(1, 1);
  }

  @Test
  void fourPartitionsWithTwoLanesEachKilledAtRandomEndEqualToTheSource() throws Exception {
    run(4, 2);
  }

  private void run(int partitions, int lanes) throws Exception {
    long seed = Long.getLong("gridway.seed", System.nanoTime());
    System.out.printf("phoenix truncate K=%d: seed %d (-Dgridway.seed=%d repeats it)%n", partitions, seed, seed);
    Random random = new Random(seed);
    Files.createDirectories(dir);
    PhoenixCluster cluster = PhoenixCluster.get();
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("ptrunc");
    source.execute(database,
        "CREATE TABLE items (id BIGINT NOT NULL, tag VARCHAR(8) NOT NULL, qty INT, note VARCHAR(40),"
            + " PRIMARY KEY (id, tag))",
        "CREATE TABLE notes (seq BIGINT NOT NULL, what VARCHAR(40) NOT NULL)",
        "CREATE TABLE ticks (tx BIGINT NOT NULL PRIMARY KEY, truncates INT NOT NULL)");
    try (Relay relay = relay(source, database, partitions, random);
        Writer writer = new Writer(source, database, random.nextLong())) {
      URI uri = URI.create("http://127.0.0.1:" + relay.start().getPort());
      writer.start();
      List<String> moments = new ArrayList<>();
      for (int run = 0; run < KILLS; run++) {
        Process consumer = start(uri, cluster, partitions, lanes, run);
        // the writer writes while the consumer applies: every transaction ends with a tick row, never truncated
        long base = ticks(cluster, database);
        writer.allow(80);
        long goal = base + 1 + random.nextInt(80);
        // generous: the first run also creates the three tables, which took over 2 minutes at a load average of 75
        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(5))
            .until(() -> ticks(cluster, database) >= goal);
        long delay = random.nextInt(200);
        Thread.sleep(delay); // the seeded random moment itself, not a wait for something to happen
        consumer.destroyForcibly(); // SIGKILL
        assertThat(consumer.waitFor(10, TimeUnit.SECONDS)).isTrue();
        moments.add(goal + " ticks + " + delay + " ms");
      }
      writer.allow(60);
      writer.finish();
      assertThat(writer.truncates()).as("the writer truncated (seed %d)", seed).isGreaterThanOrEqualTo(KILLS);
      Process last = start(uri, cluster, partitions, lanes, KILLS);
      Map<String, List<String>> want = new LinkedHashMap<>();
      Map<String, List<String>> columns = new LinkedHashMap<>();
      try (Connection c = source.connect(database)) {
        for (String table : TABLES) {
          List<String> names = new ArrayList<>();
          want.put(table, PhoenixRows.source(c, table, names));
          columns.put(table, names);
        }
      }
      assertThat(want.get("items")).as("rows written after the last TRUNCATE (seed %d)", seed).isNotEmpty();
      try {
        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
            .until(() -> read(cluster, database, columns).equals(want));
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        System.out.printf("phoenix truncate K=%d: not caught up (seed %d)%n", partitions, seed); // compared below
      }
      last.destroy(); // SIGTERM: a clean stop; nothing may change after catching up
      assertThat(last.waitFor(60, TimeUnit.SECONDS)).isTrue();
      Map<String, List<String>> got = read(cluster, database, columns);
      for (String table : TABLES) {
        assertThat(got.get(table)).as("%s: Phoenix rows equal the source's (seed %d)", table, seed)
            .isEqualTo(want.get(table));
      }
      System.out.printf("phoenix truncate K=%d: %d kills (%s), %d transactions, %d TRUNCATEs; rows equal: %s; seed %d%n",
          partitions, KILLS, String.join(", ", moments), writer.transactions(), writer.truncates(),
          TABLES.stream().map(t -> t + " " + want.get(t).size()).collect(Collectors.joining(", ")), seed);
    }
  }

  private static Map<String, List<String>> read(PhoenixCluster cluster, String database,
      Map<String, List<String>> columns) throws SQLException {
    Map<String, List<String>> tables = new LinkedHashMap<>();
    try (Connection c = cluster.connect()) {
      for (String table : TABLES) {
        tables.put(table, PhoenixRows.phoenix(c, database, table, columns.get(table)));
      }
    }
    return tables;
  }

  private static long ticks(PhoenixCluster cluster, String database) {
    try (Connection c = cluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + database + "\".\"ticks\"")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      return 0; // the consumer has not created the table yet
    }
  }

  /** A relay reading {@code database.*} from the binlog's end now, key-hashed over {@code partitions}. */
  private Relay relay(PrivateMariaDb source, String database, int partitions, Random random) throws Exception {
    String start;
    try (Connection c = source.connect(""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      start = rs.getString(1) + ":" + rs.getLong(2);
    }
    Path password = dir.resolve("repl.pw");
    Files.writeString(password, source.replicationPassword() + "\n");
    return new Relay(RelayConfig.parse("""
        source:
          partitions: %d
          mysql: {source: src, host: %s, port: %d, user: %s, passwordFile: %s, serverId: %d, start: "%s",
                  include: ["%s.*"], heartbeatInterval: 300ms, reconnectBackoffMax: 300ms}
        buffer: {capacity: 64MiB, maxWindow: 8MiB}
        http: {port: 0, ioThreads: 1, shutdownGrace: 0s, stream: {heartbeat: 200ms}}
        """.formatted(partitions, source.host(), source.port(), source.replicationUser(), password,
        100_000 + random.nextInt(1_000_000), start, database), "truncate relay"), Clock.systemUTC());
  }

  /** {@code gridway consumer} in its own JVM, applying every partition into Phoenix; returns once it runs. */
  private Process start(URI relay, PhoenixCluster cluster, int partitions, int lanes, int run) throws Exception {
    String name = "k" + partitions + "-" + run;
    Path log = dir.resolve("service-" + name + ".log");
    Path config = dir.resolve(name + ".yml");
    Files.writeString(config, """
        consumer:
          source: src
          group: truncate-k%d
          relays: [%s]
          partitions: [%s]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxEvents: 200, maxWait: 5ms, maxInFlight: 3}
          microBatch: {count: %d}
        applier:
          type: phoenix
          phoenix: {url: "%s", mode: rows}
        http: {port: 0}
        """.formatted(partitions, relay, IntStream.range(0, partitions).mapToObj(Integer::toString)
        .collect(Collectors.joining(", ")), lanes, cluster.url()));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:TieredStopAtLevel=1"));
    command.addAll(Arrays.asList(System.getProperty("phoenix.jvm.flags", "").split(" +")));
    command.removeIf(String::isEmpty);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConsumerMain.class.getName(), "--config",
        config.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.add(process);
    await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(20))
        .until(() -> !process.isAlive() || Files.readString(log).contains("gridway consumer started"));
    assertThat(process.isAlive()).as("consumer started (see %s)", log).isTrue();
    return process;
  }

  /**
   * The source workload, on its own thread, as many transactions as {@link #allow allowed}: 1–4 statements on {@code
   * items} (inserts, also of keys a TRUNCATE freed; updates; deletes) and an insert into the keyless {@code notes},
   * then a {@code ticks} row; about one transaction in twelve is followed by a TRUNCATE of {@code items}, one in
   * thirty of {@code notes}. None in the last 20 allowed transactions, so {@code items} ends with rows.
   */
  private static final class Writer implements AutoCloseable {
    private final PrivateMariaDb db;
    private final String database;
    private final Random random;
    private final Thread thread;
    private final List<long[]> live = new ArrayList<>();
    private final List<long[]> freed = new ArrayList<>();
    private volatile boolean stopping;
    private volatile Exception failure;
    private volatile long transactions;
    private volatile long allowed;
    private volatile int truncates;
    private long nextId = 1;
    private long seq;

    Writer(PrivateMariaDb db, String database, long seed) {
      this.db = db;
      this.database = database;
      this.random = new Random(seed);
      this.thread = new Thread(this::write, "truncate-workload");
      this.thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    void allow(long more) {
      allowed += more; // the test thread only
    }

    long transactions() {
      return transactions;
    }

    int truncates() {
      return truncates;
    }

    /** Writes every allowed transaction, then stops; rethrows the writer's failure. */
    void finish() throws Exception {
      while (transactions < allowed && failure == null && thread.isAlive()) {
        Thread.sleep(10);
      }
      stopping = true;
      thread.join();
      if (failure != null) {
        throw failure;
      }
    }

    @Override
    public void close() {
      stopping = true;
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void write() {
      try (Connection c = db.connect(database)) {
        c.setAutoCommit(false);
        while (!stopping) {
          if (transactions >= allowed) {
            Thread.sleep(5);
            continue;
          }
          int statements = 1 + random.nextInt(4);
          for (int i = 0; i < statements; i++) {
            statement(c);
          }
          exec(c, "INSERT INTO notes VALUES (?, ?)", ++seq, "note " + random.nextInt(1000));
          exec(c, "INSERT INTO ticks VALUES (?, ?)", transactions, truncates);
          c.commit();
          transactions++;
          if (allowed - transactions > 20) {
            if (random.nextInt(12) == 0) {
              truncate(c, "items");
              freed.addAll(live); // their keys come back after the TRUNCATE
              live.clear();
            }
            if (random.nextInt(30) == 0) {
              truncate(c, "notes");
            }
          }
          Thread.sleep(1 + random.nextInt(4));
        }
      } catch (Exception e) {
        failure = e;
      }
    }

    private void truncate(Connection c, String table) throws SQLException {
      try (Statement s = c.createStatement()) {
        s.execute("TRUNCATE TABLE " + table); // DDL: commits on its own
      }
      truncates++;
    }

    private void statement(Connection c) throws SQLException {
      int p = random.nextInt(100);
      if (p < 50 || live.isEmpty()) {
        long[] key = !freed.isEmpty() && random.nextInt(3) == 0 ? freed.remove(random.nextInt(freed.size()))
            : new long[] {nextId++, random.nextInt(3)};
        exec(c, "INSERT INTO items VALUES (?, ?, ?, ?)", key[0], "t" + key[1],
            random.nextInt(8) == 0 ? null : random.nextInt(1000), "n" + random.nextInt(100_000));
        live.add(key);
      } else if (p < 80) {
        long[] key = live.get(random.nextInt(live.size()));
        exec(c, "UPDATE items SET qty = ?, note = ? WHERE id = ? AND tag = ?", random.nextInt(1000),
            "u" + random.nextInt(100_000), key[0], "t" + key[1]);
      } else {
        long[] key = live.remove(random.nextInt(live.size()));
        exec(c, "DELETE FROM items WHERE id = ? AND tag = ?", key[0], "t" + key[1]);
        freed.add(key);
      }
    }

    private static void exec(Connection c, String sql, Object... args) throws SQLException {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < args.length; i++) {
          ps.setObject(i + 1, args[i]);
        }
        if (ps.executeUpdate() == 0) {
          throw new IllegalStateException("the workload's bookkeeping is wrong: no row changed by " + sql);
        }
      }
    }
  }
}
