package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.create;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.relay.Relay;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The target PostgreSQL stops mid-run and starts again: the applier retries, reports degraded (its {@code degraded()},
 * the {@code gridway.consumer.jdbc.degraded} gauge, one WARN line), the partitions stay healthy (the outage does not
 * spend the runtime's retry budget), everything resumes, and nothing is lost or doubled.
 */
@Timeout(300)
class TargetOutageIT {

  /** End to end: binlog workload → relay → consumer runtime with the JDBC applier → a PostgreSQL that goes away. */
  @Test
  void theConsumerRidesOutATargetOutageDegradedButHealthyAndTheTargetEqualsTheSource() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "jdbc-outage-" + System.nanoTime()));
    Random random = new Random(Long.getLong("gridway.seed", System.nanoTime()));
    PrivateMariaDb source = PrivateMariaDb.shared();
    String database = source.createDatabase("outage");
    source.execute(database, KillWorkload.mariaDbDdl());
    try (PrivatePostgres pg = PrivatePostgres.dedicated();
        Relay relay = KillWorkload.relay(source, database, dir, random);
        KillWorkload writer = new KillWorkload(source, database, random.nextLong())) {
      String db = pg.createDatabase("outage");
      pg.execute(db, KillWorkload.postgresDdl(database));
      URI uri = URI.create("http://127.0.0.1:" + relay.start().getPort());
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      try (HikariDataSource pool = JdbcTargets.pool(SqlDialect.POSTGRESQL, pg.jdbcUrl(db), pg.user(), pg.password(), 6)) {
        JdbcCheckpointStore store = new JdbcCheckpointStore(pool, SqlDialect.POSTGRESQL, Clock.systemUTC());
        JdbcApplier applier = new JdbcApplier(pool, JdbcApplierConfig.of("outage", SqlDialect.POSTGRESQL), null, store,
            meters, Clock.systemUTC());
        ConsumerConfig config = ConsumerConfig.builder("src").relays(List.of(uri)).group("outage").partitions(0)
            .microBatches(2).build();
        KillWorkload.Connector target = () -> pg.connect(db);
        try (GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(store).handler(applier)
            .meterRegistry(meters).build()) {
          consumer.start();
          writer.start();
          writer.allow(150);
          await().atMost(Duration.ofSeconds(60)).until(() -> rowCount(target, database) >= 50);
          pg.stop();
          writer.allow(150); // the source keeps changing while the target is away
          await().atMost(Duration.ofSeconds(60)).until(applier::degraded);
          assertThat(meters.get("gridway.consumer.jdbc.degraded").gauge().value()).isEqualTo(1.0);
          for (int i = 0; i < 6; i++) { // three seconds into the outage: retrying, not failed
            assertThat(consumer.statuses().values()).allSatisfy(status -> assertThat(status.isHealthy()).isTrue());
            Thread.sleep(500);
          }
          assertThat(applier.degraded()).isTrue();
          pg.start();
          writer.finish();
          Map<String, List<String>> want = KillWorkload.read(() -> source.connect(database), database, "`");
          await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
              .until(() -> KillWorkload.read(target, database, "\"").equals(want));
          assertThat(applier.degraded()).isFalse();
          assertThat(meters.get("gridway.consumer.jdbc.degraded").gauge().value()).isZero();
          assertThat(meters.counter("gridway.consumer.jdbc.target.retries").count()).isPositive();
          assertThat(consumer.statuses().values()).allSatisfy(status ->
              assertThat(status.state()).isEqualTo(PartitionStatus.State.RUNNING));
          Map<String, List<String>> got = KillWorkload.read(target, database, "\"");
          for (String table : KillWorkload.TABLES) {
            assertThat(got.get(table)).as("%s after the outage", table).isEqualTo(want.get(table));
          }
        }
      }
    }
  }

  private static long rowCount(KillWorkload.Connector target, String schema) throws Exception {
    try (Connection c = target.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM \"" + schema + "\"." + KillWorkload.KEYLESS)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aStoppedTargetIsRetriedReportedDegradedAndResumedWithNothingLostOrDoubled() throws Exception {
    try (PrivatePostgres pg = PrivatePostgres.dedicated(); Target t = Targets.postgres(pg)) {
      TableSchema s = TableSchema.of("src", t.database(), "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("n", ColumnType.BIGINT)), List.of("id"));
      TableSchema log = TableSchema.of("src", t.database(), "log", List.of(Column.of("id", ColumnType.BIGINT)), List.of());
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(JdbcApplierConfig.SchemaChangePolicy.APPLY),
          null, new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()), meters, Clock.systemUTC());
      applier.apply(batch(-1, tx(1, create(s), create(log))));
      AtomicLong applied = new AtomicLong();
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
        try {
          for (long b = 0; !done.get(); b++) {
            long scn = 10 + b;
            var next = batch(-1, tx(scn, ChangeEvent.insert(s, Row.of(s, b % 50, b), Scn.ZERO, 0, 0),
                ChangeEvent.insert(log, Row.of(log, b), Scn.ZERO, 0, 0)));
            // what the consumer's lanes do: retry while the target is away (UNAVAILABLE, unbounded here) and a few
            // times more for an ordinary failure (RETRY: a pooled connection that broke in the outage fails once
            // after the target is back); stop on FATAL
            for (int retries = 0; ; ) {
              try {
                applier.apply(next);
                break;
              } catch (Exception | AssertionError e) { // pgjdbc reports a dropped connection as an AssertionError under -ea
                io.gridway.consumer.BatchHandler.Failure kind = applier.classify(e);
                if (kind == io.gridway.consumer.BatchHandler.Failure.FATAL
                    || kind == io.gridway.consumer.BatchHandler.Failure.RETRY && ++retries >= 5) {
                  throw e;
                }
                Thread.sleep(50); // the lanes' backoff
              }
            }
            applied.incrementAndGet();
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      await().atMost(Duration.ofSeconds(60)).until(() -> applied.get() >= 50);
      pg.stop();
      await().atMost(Duration.ofSeconds(60)).until(() -> applier.degraded() || writer.isDone());
      assertThat(writer).as("every failure during the outage is classified UNAVAILABLE").isNotDone();
      long duringOutage = applied.get();
      pg.start();
      await().atMost(Duration.ofSeconds(90)).until(() -> applied.get() >= duringOutage + 50 || writer.isDone());
      assertThat(writer).as("the writer resumed after the outage").isNotDone();
      done.set(true);
      writer.get();
      long batches = applied.get();
      assertThat(applier.degraded()).isFalse();
      assertThat(meters.counter("gridway.consumer.jdbc.target.retries").count()).isPositive();
      assertThat(rows(t, "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM shop.log"))
          .containsExactly(batches + "|" + batches + "|0|" + (batches - 1));
      assertThat(rows(t, "SELECT sum(n) FROM shop.t")).containsExactly(String.valueOf(
          java.util.stream.LongStream.range(batches - 50, batches).sum()));
    }
  }
}
