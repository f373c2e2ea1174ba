package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.applier.jdbc.JdbcApplierConfig.SchemaChangePolicy;
import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.consumer.Batch;
import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cross-partition barrier for table-wide changes, with the relay's routing: a DDL and a TRUNCATE reach each of
 * three partitions at their SCN, and the partitions apply their rows independently. No partition writes a row of the
 * new table version before the DDL is applied, none a row of the old version after it; a TRUNCATE removes exactly the
 * rows committed before it, whichever partition holds them. Without the barrier the ALTER's partition drops a column
 * another partition still inserts, and a late partition's TRUNCATE removes rows a faster one wrote after it.
 */
@Timeout(120)
class SchemaBarrierIT {
  private static final int PARTITIONS = 3;

  @Test
  void mariaDb() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      run(t);
    }
  }

  @Test
  void postgres() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      run(t);
    }
  }

  private static void run(Target t) throws Exception {
    TableSchema v1 = TableSchema.of("src", t.database(), "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.of("a", ColumnType.INT), Column.of("b", ColumnType.INT)), List.of("id"));
    TableSchema v2 = TableSchema.of("src", t.database(), "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.of("a", ColumnType.INT)), List.of("id"));
    JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
    for (int p = 0; p < PARTITIONS; p++) {
      store.claim("g", p);
    }
    JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect())
        .withSchemaChange(SchemaChangePolicy.APPLY).withSourcePartitions(PARTITIONS), null, store,
        new SimpleMeterRegistry(), Clock.systemUTC());
    ExecutorService partitions = Executors.newFixedThreadPool(PARTITIONS);
    try {
      ChangeEvent create = Targets.ddl(v1, "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, a INT, b INT)");
      ChangeEvent alter = Targets.ddl(v2, "ALTER TABLE t DROP COLUMN b");
      ChangeEvent truncate = new ChangeEvent(v2, Operation.TRUNCATE, null, null, null, Scn.ZERO, 0, 0, "");

      // the CREATE reaches all three; partition 1 also has a row after it
      Future<?> p0 = apply(partitions, applier, batch(0, tx(1, create)));
      Future<?> p1 = apply(partitions, applier, batch(1, tx(1, create), tx(3, insert(v1, 1, 10, 100L))));
      awaitArrivals(t, 1, p0, p1);
      // partition 2 has not reached the CREATE yet, so it is not applied, nor the row behind it
      assertThat(columns(t)).isEmpty();
      assertThat(p0.isDone() || p1.isDone()).isFalse();
      apply(partitions, applier, batch(2, tx(1, create), tx(4, insert(v1, 3, 30, 300L)))).get(30, TimeUnit.SECONDS);
      p0.get(30, TimeUnit.SECONDS);
      p1.get(30, TimeUnit.SECONDS);
      assertThat(columns(t)).containsExactly("a", "b", "id");

      // the ALTER: partitions 0 and 1 arrive first; 0 has a new-version row behind it, 2 an old-version row before it
      p0 = apply(partitions, applier, batch(0, tx(10, alter), tx(12, insert(v2, 2, 20, null))));
      p1 = apply(partitions, applier, batch(1, tx(10, alter)));
      awaitArrivals(t, 10, p0, p1);
      assertThat(columns(t)).containsExactly("a", "b", "id");
      assertThat(rows(t, "SELECT id FROM " + table(t) + " WHERE id = 2")).isEmpty();
      assertThat(p0.isDone() || p1.isDone()).isFalse();
      apply(partitions, applier, batch(2, tx(8, insert(v1, 5, 50, 500L)), tx(10, alter))).get(30, TimeUnit.SECONDS);
      p0.get(30, TimeUnit.SECONDS);
      p1.get(30, TimeUnit.SECONDS);
      assertThat(columns(t)).containsExactly("a", "id");
      assertThat(rows(t, "SELECT id, a FROM " + table(t) + " ORDER BY id")).containsExactly("1|10", "2|20", "3|30", "5|50");

      // the TRUNCATE: 2 is fast (a row after it), 1 is late (a row before it); only rows after SCN 20 survive
      Future<?> p2 = apply(partitions, applier, batch(2, tx(20, truncate), tx(22, insert(v2, 6, 60, null))));
      p0 = apply(partitions, applier, batch(0, tx(20, truncate)));
      awaitArrivals(t, 20, p2, p0);
      apply(partitions, applier, batch(1, tx(15, insert(v2, 4, 40, null)), tx(20, truncate), tx(25, insert(v2, 7, 70, null))))
          .get(30, TimeUnit.SECONDS);
      p0.get(30, TimeUnit.SECONDS);
      p2.get(30, TimeUnit.SECONDS);
      assertThat(rows(t, "SELECT id FROM " + table(t) + " ORDER BY id")).containsExactly("6", "7");

      // a redelivered window (a consumer restarted before its checkpoint moved) passes the finished barrier again
      JdbcApplier restarted = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect())
          .withSchemaChange(SchemaChangePolicy.APPLY).withSourcePartitions(PARTITIONS), null, store,
          new SimpleMeterRegistry(), Clock.systemUTC());
      restarted.apply(batch(1, tx(20, truncate), tx(25, insert(v2, 7, 70, null)), tx(30, insert(v2, 8, 80, null))));
      assertThat(rows(t, "SELECT id FROM " + table(t) + " ORDER BY id")).containsExactly("6", "7", "8");
      // earlier barriers are forgotten once a later one is done
      assertThat(rows(t, "SELECT DISTINCT scn FROM gridway_schema_barrier")).containsExactly("20");
    } finally {
      partitions.shutdownNow();
    }
  }

  private static Future<?> apply(ExecutorService partitions, JdbcApplier applier, Batch batch) {
    return partitions.submit(() -> {
      applier.apply(batch);
      return null;
    });
  }

  private static ChangeEvent insert(TableSchema s, long id, long a, Long b) {
    Row row = s.columns().size() == 3 ? Row.of(s, id, a, b) : Row.of(s, id, a);
    return ChangeEvent.insert(s, row, Scn.ZERO, 0, 0);
  }

  private static Transaction tx(long scn, ChangeEvent e) {
    return Targets.tx(scn, e);
  }

  private static Batch batch(int partition, Transaction... txs) {
    List<Transaction> inPartition = new ArrayList<>();
    for (Transaction one : txs) {
      List<ChangeEvent> events = new ArrayList<>();
      for (ChangeEvent e : one.events()) {
        events.add(new ChangeEvent(e.schema(), e.op(), e.before(), e.after(), e.ddl(), one.scn(), one.commitTimeMicros(),
            partition, ""));
      }
      inPartition.add(new Transaction(one.scn(), one.commitTimeMicros(), one.position(), "", events));
    }
    return JdbcTestBatches.batch(partition, -1, inPartition);
  }

  private static String table(Target t) {
    return t.dialect().table(t.database(), "t");
  }

  private static List<String> columns(Target t) throws Exception {
    return rows(t, "SELECT column_name FROM information_schema.columns WHERE table_schema = '" + t.database()
        + "' AND table_name = 't' ORDER BY column_name");
  }

  /** Waits until both waiting partitions have arrived at the barrier; a failed one fails the test with its cause. */
  private static void awaitArrivals(Target t, long scn, Future<?> first, Future<?> second) {
    await().atMost(Duration.ofSeconds(30)).ignoreException(java.sql.SQLException.class).until(() -> {
      for (Future<?> f : List.of(first, second)) {
        if (f.isDone()) {
          f.get(); // throws its failure; a partition that passed the barrier early is a failure too
          throw new AssertionError("a partition passed the barrier at SCN " + scn + " before all arrived");
        }
      }
      return arrived(t, scn) == 2;
    });
  }

  private static int arrived(Target t, long scn) throws Exception {
    return rows(t, "SELECT " + t.dialect().quote("partition") + " FROM gridway_schema_barrier WHERE scn = " + scn).size();
  }
}
