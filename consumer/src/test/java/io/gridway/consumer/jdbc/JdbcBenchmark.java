package io.gridway.consumer.jdbc;

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
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The issue-6 benchmark (not a test): {@code bench.events} (480,000) synthetic rows of ~1,100 bytes, one event per
 * source transaction, preloaded into an in-process relay, then drained end to end (relay HTTP → consumer → JDBC
 * applier) into a private PostgreSQL and a private MariaDB with micro-batching K = 1, 2, 4. Reports rows/s, target
 * commits and the CPU seconds of this JVM (consumer + the relay serving from memory; the database servers' CPU is not
 * in it). Run: {@code ../mvnw -B -q -Pbench-jdbc verify -DskipTests} in {@code consumer}.
 */
public final class JdbcBenchmark {
  private JdbcBenchmark() {}

  public static void main(String[] args) throws Exception {
    int events = Integer.getInteger("bench.events", 480_000);
    int partitions = 6;
    List<Integer> ks = List.of(1, 2, 4);
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
      System.out.println("| target | K | rows | duration s | rows/s | target commits | JVM CPU s |");
      System.out.println("|---|---|---|---|---|---|---|");
      try (PrivatePostgres pg = PrivatePostgres.dedicated()) {
        String db = pg.createDatabase("bench");
        pg.execute(db, "CREATE SCHEMA synthetic");
        try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, pg.jdbcUrl(db), pg.user(), pg.password(), 8)) {
          for (int k : ks) {
            round("postgresql", pool, SqlDialect.POSTGRESQL, uri, partitions, k, events);
          }
        }
      }
      try (PrivateMariaDb maria = PrivateMariaDb.dedicated()) {
        maria.execute("", "CREATE DATABASE synthetic");
        try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.MARIADB, maria.jdbcUrl("synthetic"), maria.rootUser(),
            maria.rootPassword(), 8)) {
          for (int k : ks) {
            round("mariadb", pool, SqlDialect.MARIADB, uri, partitions, k, events);
          }
        }
      }
    }
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
    ConsumerConfig config = ConsumerConfig.of("bench", List.of(relay)).withGroup(group)
        .withPartitions(IntStream.range(0, partitions).boxed().toList())
        .withMicroBatch(new ConsumerConfig.MicroBatch(k, "key-hash", null));
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
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
    consumer.stop();
    System.out.printf("| %s | %d | %,d | %.1f | %,.0f | %,.0f | %.1f |%n", name, k, events, seconds, events / seconds,
        meters.counter("gridway.consumer.jdbc.commits").count(), cpu);
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
