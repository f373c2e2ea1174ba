package io.gridway.applier.jdbc;

import com.sun.management.OperatingSystemMXBean;
import com.zaxxer.hikari.HikariDataSource;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The issue-6 benchmark (not a test): {@code bench.events} (480,000) synthetic rows of ~1,100 bytes, one event per
 * source transaction, preloaded into an in-process relay, then drained end to end (relay HTTP → consumer → JDBC
 * applier) into a private PostgreSQL and a private MariaDB with micro-batching K = 1, 2, 4. Reports rows/s, target
 * commits and the CPU seconds of this JVM (consumer + the relay serving from memory; the database servers' CPU is not
 * in it, it is reported apart from the servers' process trees). Run: {@code ../mvnw -B -q -Pbench-jdbc verify
 * -DskipTests} in {@code consumer}; {@code -Dbench.targets=postgresql}, {@code -Dbench.ks=1,4} pick rounds, {@code
 * -Dbench.jfr=true} records a JFR profile of each target's rounds into {@code target/jdbc-bench-<target>.jfr}.
 */
public final class JdbcBenchmark {
  private JdbcBenchmark() {}

  public static void main(String[] args) throws Exception {
    int events = Integer.getInteger("bench.events", 480_000);
    int partitions = 6;
    List<Integer> ks = Arrays.stream(System.getProperty("bench.ks", "1,2,4").split(",")).map(Integer::valueOf).toList();
    List<String> targets = List.of(System.getProperty("bench.targets", "postgresql,mariadb").split(","));
    boolean jfr = Boolean.parseBoolean(System.getProperty("bench.jfr", "false"));
    boolean limits = Boolean.parseBoolean(System.getProperty("bench.limits", "true"));
    try (Relay relay = new Relay(RelayConfig.parse("""
        source:
          id: bench
          partitions: %d
          synthetic: {tables: 3, rowBytes: 1100, eventsPerSecond: 0, minTransactionEvents: 1, maxTransactionEvents: 1, seed: 1, maxEvents: %d}
        buffer: {capacity: 1GiB, maxWindow: 64MiB}
        http: {port: 0, ioThreads: 1, shutdownGrace: 0s}
        """.formatted(partitions, events), "bench relay"), Clock.systemUTC())) {
      URI uri = URI.create("http://127.0.0.1:" + relay.start().getPort());
      while (relay.buffer().eventsPublished() < events) {
        Thread.sleep(100);
      }
      System.out.printf("relay preloaded: %d events%n%n", relay.buffer().eventsPublished());
      System.out.println("| target | K | rows | duration s | rows/s | target commits | server statements |"
          + " JVM CPU s | DB server CPU s | load before/after |");
      System.out.println("|---|---|---|---|---|---|---|---|---|---|");
      if (targets.contains("postgresql")) {
        try (PrivatePostgres pg = PrivatePostgres.dedicated(); Recording recording = profile(jfr)) {
          String db = pg.createDatabase("bench");
          pg.execute(db, "CREATE SCHEMA synthetic");
          for (int k : ks) { // the service's pool size: one connection per lane, plus the checkpoint writer's
            try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, pg.jdbcUrl(db), pg.user(), pg.password(),
                partitions * k + 2)) {
              round("postgresql", pool, SqlDialect.POSTGRESQL, uri, partitions, k, events);
            }
          }
          if (limits) { // the same-run limits: the target's own bulk load of the same shape of rows, no grid
            try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, pg.jdbcUrl(db), pg.user(), pg.password(), 1)) {
              for (BulkLoadLimit.Mode mode : List.of(BulkLoadLimit.Mode.COPY, BulkLoadLimit.Mode.COPY_STAGING,
                  BulkLoadLimit.Mode.MULTI_ROW_UPSERT)) {
                BulkLoadLimit.round(pool, SqlDialect.POSTGRESQL, mode, events);
              }
            }
          }
          dump(recording, "postgresql");
        }
      }
      if (targets.contains("mariadb")) {
        try (PrivateMariaDb maria = PrivateMariaDb.dedicated(); Recording recording = profile(jfr)) {
          maria.execute("", "CREATE DATABASE synthetic");
          for (int k : ks) {
            try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.MARIADB, maria.jdbcUrl("synthetic"), maria.rootUser(),
                maria.rootPassword(), partitions * k + 2)) {
              round("mariadb", pool, SqlDialect.MARIADB, uri, partitions, k, events);
            }
          }
          if (limits) {
            try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.MARIADB, maria.jdbcUrl("synthetic"), maria.rootUser(),
                maria.rootPassword(), 1)) {
              BulkLoadLimit.round(pool, SqlDialect.MARIADB, BulkLoadLimit.Mode.MULTI_ROW_INSERT, events);
            }
          }
          dump(recording, "mariadb");
        }
      }
    }
  }

  /** A JFR recording with the JDK's "profile" settings, or null. */
  private static Recording profile(boolean on) throws Exception {
    if (!on) {
      return null;
    }
    Recording recording = new Recording(Configuration.getConfiguration("profile"));
    recording.start();
    return recording;
  }

  private static void dump(Recording recording, String target) throws Exception {
    if (recording != null) {
      Path file = Path.of("target", "jdbc-bench-" + target + ".jfr");
      recording.dump(file);
      System.out.println("JFR profile: " + file.toAbsolutePath());
    }
  }

  /**
   * The target's own count of statements and commits: MariaDB's {@code Questions} (statements and prepared executions
   * the server ran; a bulk batch is one) and {@code Com_commit}; PostgreSQL's {@code xact_commit} (it keeps no
   * statement count without pg_stat_statements, so statements are -1).
   */
  private static long[] serverCounts(HikariDataSource pool, SqlDialect d) throws Exception {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      if (d == SqlDialect.POSTGRESQL) {
        try (ResultSet rs = s.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
          rs.next();
          return new long[] {-1, rs.getLong(1)};
        }
      }
      long[] out = new long[2];
      try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_commit')")) {
        while (rs.next()) {
          out[rs.getString(1).equals("Questions") ? 0 : 1] = rs.getLong(2);
        }
      }
      return out;
    }
  }

  /** CPU seconds of this JVM's child processes (the dedicated database server and its backends). */
  private static double serverCpuSeconds() {
    return ProcessHandle.current().descendants()
        .mapToLong(p -> p.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L)).sum() / 1e9;
  }

  private static String load() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
  }

  private static void round(String name, HikariDataSource pool, SqlDialect d, URI relay, int partitions, int k, int events)
      throws Exception {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      for (TableSchema t : tables()) {
        String table = d.table("synthetic", t.table());
        s.execute("DROP TABLE IF EXISTS " + table);
        s.execute(d.createTable(table, t));
      }
      c.commit();
    }
    String group = "bench-" + k + "-" + System.nanoTime();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    JdbcCheckpointStore store = new JdbcCheckpointStore(pool, d, Clock.systemUTC());
    JdbcApplier applier = new JdbcApplier(pool, JdbcApplierConfig.of(group, d), null, store, meters, Clock.systemUTC());
    ConsumerConfig config = ConsumerConfig.builder("bench").relays(List.of(relay)).group(group)
        .partitions(IntStream.range(0, partitions).toArray()).microBatches(k).build();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long[] server0 = serverCounts(pool, d);
    double serverCpu0 = serverCpuSeconds();
    String load0 = load();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(store).handler(applier)
        .meterRegistry(meters).build();
    consumer.start();
    while (meters.counter("gridway.consumer.jdbc.rows").count() < events) {
      Thread.sleep(20);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
    double serverCpu = serverCpuSeconds() - serverCpu0;
    consumer.stop();
    long[] server = serverCounts(pool, d);
    System.out.printf("| %s | %d | %,d | %.1f | %,.0f | %,.0f (server %,d) | %s | %.1f | %.1f | %s / %s |%n", name, k,
        events, seconds, events / seconds, meters.counter("gridway.consumer.jdbc.commits").count(), server[1] - server0[1],
        server[0] < 0 ? "n/a" : String.format("%,d", server[0] - server0[0]), cpu, serverCpu, load0, load());
  }

  private static List<TableSchema> tables() {
    List<TableSchema> out = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      out.add(TableSchema.of("bench", "synthetic", "t" + t, List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("tenant", ColumnType.INT), Column.decimal("amount", 12, 2),
          Column.temporal("updated", ColumnType.TIMESTAMP, 6),
          new Column("payload", ColumnType.VARCHAR, false, true, 65535, 0, 0, "utf8mb4", List.of())), List.of("id")));
    }
    return out;
  }
}
