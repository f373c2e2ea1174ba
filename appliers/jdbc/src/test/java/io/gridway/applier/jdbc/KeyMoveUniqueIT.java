package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.consumer.Batch;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivateMariaDb;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A key move under key-hash partitioning: DELETE of the old key in partition 1, INSERT of the new key in partition 0,
 * same SCN, the row holding a UNIQUE secondary key value. While partition 1 is behind the SCN the violation is a
 * wait (UNAVAILABLE, nothing parked); once every partition is past it, a violation is a real one and is parked.
 */
class KeyMoveUniqueIT {

  /** A batch of one transaction at {@code scn} in {@code partition}. */
  private static Batch batch(int partition, Transaction one) {
    List<ChangeEvent> events = new java.util.ArrayList<>();
    for (ChangeEvent e : one.events()) {
      events.add(new ChangeEvent(e.schema(), e.op(), e.before(), e.after(), e.ddl(), e.scn(), e.commitTimeMicros(),
          partition, ""));
    }
    return JdbcTestBatches.batch(partition, -1, List.of(new Transaction(one.scn(), one.commitTimeMicros(),
        one.position(), "", events)));
  }

  @Test
  void aUniqueViolationWaitsForABehindPartitionAndIsParkedOnlyOnceAllAreThere() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      t.pool().getConnection().close();
      PrivateMariaDb.shared().execute(t.database(), "CREATE TABLE u (id BIGINT PRIMARY KEY, email VARCHAR(40) UNIQUE)");
      TableSchema s = TableSchema.of("src", t.database(), "u", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          new Column("email", ColumnType.VARCHAR, false, true, 40, 0, 0, "utf8mb4", List.of())), List.of("id"));
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      store.claim("g", 0);
      store.claim("g", 1);
      JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()), null, store, meters,
          Clock.systemUTC());
      applier.apply(batch(1, tx(5, ChangeEvent.insert(s, Row.of(s, 1L, "a@x"), Scn.ZERO, 0, 0))));
      Batch move = batch(0, tx(10, ChangeEvent.insert(s, Row.of(s, 1000L, "a@x"), Scn.ZERO, 0, 0)));

      Throwable waiting = catchThrowable(() -> applier.apply(move));
      assertThat(waiting).isInstanceOf(PartitionBehindException.class)
          .hasMessageContaining("partition 0 SCN 10 table " + t.database() + ".u key id=1000")
          .hasMessageContaining("partition 1 of the group is before this SCN");
      assertThat(applier.classify(waiting)).isEqualTo(BatchHandler.Failure.UNAVAILABLE);
      assertThat(applier.degraded()).isFalse();

      applier.apply(batch(1, tx(10, ChangeEvent.delete(s, Row.of(s, 1L, "a@x"), Scn.ZERO, 0, 0))));
      applier.apply(move); // the retry, once partition 1 has applied the DELETE
      assertThat(rows(t, "SELECT id, email FROM " + t.database() + ".u")).containsExactly("1000|a@x");

      // every partition past the SCN: a violation now is a real one, parked with its place
      applier.apply(batch(1, tx(30, ChangeEvent.insert(s, Row.of(s, 5L, "b@x"), Scn.ZERO, 0, 0))));
      applier.apply(batch(0, tx(20, ChangeEvent.insert(s, Row.of(s, 2000L, "a@x"), Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id FROM " + t.database() + ".u ORDER BY id")).containsExactly("5", "1000");
      assertThat(rows(t, "SELECT event_key, reason FROM gridway_dead_letter")).singleElement().asString()
          .startsWith("id=2000|group g partition 0 SCN 20 table " + t.database() + ".u").contains("SQLSTATE 23000");
    }
  }

  @Test
  void aValueAPartitionAheadHoldsIsParkedThenAppliedByItselfOnceItIsFree() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      t.pool().getConnection().close();
      PrivateMariaDb.shared().execute(t.database(), "CREATE TABLE u (id BIGINT PRIMARY KEY, email VARCHAR(40) UNIQUE)");
      TableSchema s = TableSchema.of("src", t.database(), "u", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          new Column("email", ColumnType.VARCHAR, false, true, 40, 0, 0, "utf8mb4", List.of())), List.of("id"));
      JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      store.claim("g", 0);
      store.claim("g", 1);
      java.util.concurrent.atomic.AtomicReference<java.time.Instant> now =
          new java.util.concurrent.atomic.AtomicReference<>(java.time.Instant.parse("2026-01-01T00:00:00Z"));
      Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
          return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public java.time.Instant instant() {
          return now.get();
        }
      };
      try (JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSourcePartitions(2),
          null, store, new SimpleMeterRegistry(), clock)) {
        // partition 1 is ahead: the value is on its key 1 since SCN 30, after partition 0's SCN 20 that gives it to 1000
        applier.apply(batch(1, tx(30, ChangeEvent.insert(s, Row.of(s, 1L, "a@x"), Scn.ZERO, 0, 0))));
        applier.apply(batch(0, tx(20, ChangeEvent.insert(s, Row.of(s, 1000L, "a@x"), Scn.ZERO, 0, 0))));
        assertThat(rows(t, "SELECT event_key FROM gridway_dead_letter")).containsExactly("id=1000");
        // the value moves on in partition 1; partition 0's next change of key 1000 parks behind the first
        applier.apply(batch(1, tx(40, ChangeEvent.delete(s, Row.of(s, 1L, "a@x"), Scn.ZERO, 0, 0))));
        applier.apply(batch(0, tx(50, ChangeEvent.update(s, Row.of(s, 1000L, "a@x"), Row.of(s, 1000L, "b@x"), Scn.ZERO, 0, 0))));
        // a second later the applier retries the parked key by itself, with no further batch (the source may be idle):
        // its last change sets the row, and the key is free again
        assertThat(rows(t, "SELECT count(*) FROM gridway_dead_letter")).containsExactly("2");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
          now.set(now.get().plusSeconds(2)); // time passes only here: before, no retry was due
          assertThat(rows(t, "SELECT count(*) FROM gridway_dead_letter")).containsExactly("0");
          assertThat(rows(t, "SELECT id, email FROM " + t.database() + ".u ORDER BY id")).containsExactly("1000|b@x");
        });
        applier.apply(batch(1, tx(60, ChangeEvent.insert(s, Row.of(s, 7L, "c@x"), Scn.ZERO, 0, 0))));
        assertThat(rows(t, "SELECT id, email FROM " + t.database() + ".u ORDER BY id")).containsExactly("7|c@x", "1000|b@x");
        applier.apply(batch(0, tx(70, ChangeEvent.update(s, Row.of(s, 1000L, "b@x"), Row.of(s, 1000L, "d@x"), Scn.ZERO, 0, 0))));
        assertThat(rows(t, "SELECT email FROM " + t.database() + ".u WHERE id = 1000")).containsExactly("d@x");
      }
    }
  }
}
