package io.gridway.consumer.jdbc;

import static io.gridway.consumer.jdbc.JdbcApplierIT.rows;
import static io.gridway.consumer.jdbc.Targets.batch;
import static io.gridway.consumer.jdbc.Targets.create;
import static io.gridway.consumer.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.consumer.jdbc.Targets.Target;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The target PostgreSQL stops mid-run and starts again: the applier retries, reports degraded, resumes, loses nothing. */
@Timeout(180)
class TargetOutageIT {

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
            applier.apply(batch(-1, tx(scn, ChangeEvent.insert(s, Row.of(s, b % 50, b), Scn.ZERO, 0, 0),
                ChangeEvent.insert(log, Row.of(log, b), Scn.ZERO, 0, 0))));
            applied.incrementAndGet();
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      await().atMost(Duration.ofSeconds(60)).until(() -> applied.get() >= 50);
      pg.stop();
      await().atMost(Duration.ofSeconds(60)).until(() -> applier.degraded() || writer.isDone());
      assertThat(writer).as("the writer keeps retrying through the outage").isNotDone();
      long duringOutage = applied.get();
      pg.start();
      await().atMost(Duration.ofSeconds(90)).until(() -> applied.get() >= duringOutage + 50);
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
