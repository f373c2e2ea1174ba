package io.gridway.consumer.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.ConsumerMain;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivatePostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Relay (synthetic source: inserts, updates and deletes on 3 tables) → {@link ConsumerMain} in its own JVM with the
 * JDBC applier → the private PostgreSQL, SIGKILLed at random moments (3, or 20 under {@code -Plong}) and restarted.
 * At the end every table equals the state the relay's events produce, row for row, and the insert-only keyless table
 * {@code applied_log} — one row per row change the target saw, written by triggers on the target tables — has exactly
 * as many rows as there were effective changes: an event applied twice would add a row there.
 *
 * <p>The synthetic source has no key changes and no keyless table; those paths are covered with constructed events
 * in {@link JdbcApplierIT}.
 */
@Timeout(300)
class ExactlyOnceKillIT {
  private static final List<TableSchema> TABLES = new ArrayList<>();

  static {
    for (int t = 0; t < 3; t++) {
      TABLES.add(TableSchema.of("src", "synthetic", "t" + t, List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("tenant", ColumnType.INT), Column.decimal("amount", 12, 2),
          Column.temporal("updated", ColumnType.TIMESTAMP, 6),
          new Column("payload", ColumnType.VARCHAR, false, true, 65535, 0, 0, "utf8mb4", List.of())), List.of("id")));
    }
  }

  /** Kept after the run (service logs). */
  private final Path dir = Path.of("target", "jdbc-kill-" + System.nanoTime());

  @Test
  void transactionBatchingKilledAtRandomAppliesEachEventOnce() throws Exception {
    run(1);
  }

  @Test
  void microBatchingK4KilledAtRandomAppliesEachEventOnce() throws Exception {
    run(4);
  }

  private void run(int k) throws Exception {
    int kills = Boolean.getBoolean("gridway.long") ? 20 : 3;
    Random random = new Random(Long.getLong("gridway.seed", System.nanoTime()));
    long events = kills * 1500L + 2000;
    Files.createDirectories(dir);
    PrivatePostgres pg = PrivatePostgres.shared();
    String db = pg.createDatabase("kill");
    prepare(pg, db);
    try (Relay relay = new Relay(RelayConfig.parse("""
        source:
          id: src
          partitions: 2
          synthetic: {tables: 3, rowBytes: 300, eventsPerSecond: 1500, minTransactionEvents: 1, maxTransactionEvents: 20,
                      updatePercent: 25, deletePercent: 10, seed: %d, maxEvents: %d}
        buffer: {capacity: 128MiB, maxWindow: 8MiB}
        http: {port: 0, ioThreads: 1, shutdownGrace: 0s, stream: {heartbeat: 200ms}}
        """.formatted(random.nextInt(1000), events), "kill relay"), Clock.systemUTC())) {
      URI uri = URI.create("http://127.0.0.1:" + relay.start().getPort());
      for (int run = 0; run <= kills; run++) {
        Process process = start(uri, pg, db, k, run);
        if (run < kills) {
          // At most 850 new row changes per run, so every kill lands while changes are still being applied.
          long target = logRows(pg, db) + 50 + random.nextInt(800);
          await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(5)).until(() -> logRows(pg, db) >= target);
          process.destroyForcibly(); // SIGKILL: between statements, mid-batch, around a commit: wherever it lands
          assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        } else {
          Expected expected = new Expected();
          await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (relay.buffer().eventsPublished() < events) {
              return false;
            }
            expected.build(uri, relay.buffer().processedScn());
            return logRows(pg, db) >= expected.effectiveChanges;
          });
          process.destroy();
          assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
          verify(pg, db, expected, kills, k);
        }
      }
    }
  }

  private static void prepare(PrivatePostgres pg, String db) throws Exception {
    List<String> sql = new ArrayList<>(List.of("CREATE SCHEMA synthetic",
        "CREATE TABLE synthetic.applied_log (tbl TEXT NOT NULL, id BIGINT NOT NULL, op TEXT NOT NULL)", """
        CREATE FUNCTION synthetic.log_change() RETURNS trigger AS $$
        BEGIN
          INSERT INTO synthetic.applied_log VALUES (TG_TABLE_NAME, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END, TG_OP);
          RETURN NULL;
        END $$ LANGUAGE plpgsql"""));
    for (TableSchema t : TABLES) {
      sql.add(SqlDialect.POSTGRESQL.createTable(SqlDialect.POSTGRESQL.table("synthetic", t.table()), t));
      sql.add("CREATE TRIGGER log AFTER INSERT OR UPDATE OR DELETE ON synthetic." + t.table()
          + " FOR EACH ROW EXECUTE FUNCTION synthetic.log_change()");
    }
    pg.execute(db, sql.toArray(String[]::new));
  }

  private Process start(URI relay, PrivatePostgres pg, String db, int k, int run) throws Exception {
    Path config = dir.resolve("consumer.yml");
    Files.writeString(config, """
        consumer:
          source: src
          group: kill
          relays: [%s]
          partitions: [0, 1]
          pull: {waitTime: 200ms, backoff: 20ms}
          batch: {maxEvents: 300, maxWait: 5ms, maxInFlight: 3}
          microBatch: {count: %d}
        applier:
          type: jdbc
          jdbc: {url: "%s", user: %s, schemaChange: stop}
        """.formatted(relay, k, pg.jdbcUrl(db), pg.user()));
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), ConsumerMain.class.getName(),
        "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("service-" + run + ".log").toFile()).start();
  }

  private static long logRows(PrivatePostgres pg, String db) throws Exception {
    try (Connection c = DriverManager.getConnection(pg.jdbcUrl(db), pg.user(), pg.password());
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM synthetic.applied_log")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The state the relay's events produce under source-wins semantics, and how many row changes the target sees. */
  private static final class Expected {
    final Map<String, TreeMap<Long, Row>> tables = new HashMap<>();
    long effectiveChanges;
    long eventCount;

    void build(URI relay, long end) throws Exception {
      tables.clear();
      effectiveChanges = 0;
      eventCount = 0;
      HttpClient client = HttpClient.newHttpClient();
      long since = 0;
      while (since < end) {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
            relay.resolve("/v1/sources/src/events?since=" + since + "&maxBytes=16777216&waitMs=0")).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(response.body()));
        for (Transaction t : decoded.transactions()) {
          for (ChangeEvent e : t.events()) {
            apply(e);
          }
          since = t.scn().value();
        }
        if (!decoded.heartbeats().isEmpty()) {
          since = Math.max(since, decoded.heartbeats().get(decoded.heartbeats().size() - 1).scn().value());
        }
        if (decoded.transactions().isEmpty() && decoded.heartbeats().isEmpty()) {
          break;
        }
      }
    }

    private void apply(ChangeEvent e) {
      eventCount++;
      TreeMap<Long, Row> rows = tables.computeIfAbsent(e.table(), k -> new TreeMap<>());
      long id = (Long) e.key().get(0);
      switch (e.op()) {
        case INSERT, UPDATE -> {
          rows.put(id, e.after());
          effectiveChanges++;
        }
        case DELETE -> {
          if (rows.remove(id) != null) {
            effectiveChanges++;
          }
        }
        default -> throw new IllegalStateException(e.op().toString());
      }
    }
  }

  private static void verify(PrivatePostgres pg, String db, Expected expected, int kills, int k) throws Exception {
    try (Connection c = DriverManager.getConnection(pg.jdbcUrl(db), pg.user(), pg.password());
        Statement s = c.createStatement()) {
      for (TableSchema t : TABLES) {
        TreeMap<Long, Row> want = expected.tables.getOrDefault(t.table(), new TreeMap<>());
        List<Row> wantRows = new ArrayList<>(want.values());
        int n = 0;
        long checksum = 0;
        try (ResultSet rs = s.executeQuery("SELECT * FROM synthetic." + t.table() + " ORDER BY id")) {
          while (rs.next()) {
            assertThat(n).as("%s has no extra rows", t.table()).isLessThan(wantRows.size());
            List<Object> got = TypeRows.read(SqlDialect.POSTGRESQL, t, rs);
            TypeRows.assertMapped(SqlDialect.POSTGRESQL, t, wantRows.get(n), got);
            checksum = checksum * 31 + got.hashCode();
            n++;
          }
        }
        assertThat(n).as("%s row count", t.table()).isEqualTo(wantRows.size());
        System.out.printf("exactly-once K=%d: %s %d rows equal, checksum %x%n", k, t.table(), n, checksum);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM synthetic.applied_log")) {
        rs.next();
        assertThat(rs.getLong(1)).as("applied_log (insert-only, keyless): one row per effective change, none twice")
            .isEqualTo(expected.effectiveChanges);
      }
      System.out.printf("exactly-once K=%d: %d kills, %d events, %d effective row changes, each applied once%n", k, kills,
          expected.eventCount, expected.effectiveChanges);
    }
  }
}
