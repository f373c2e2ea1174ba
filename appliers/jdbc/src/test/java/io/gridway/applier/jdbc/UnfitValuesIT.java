package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.create;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.applier.jdbc.JdbcApplierConfig.SchemaChangePolicy;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.PolicyLoader;
import io.gridway.policy.UnfitValueStrategy;
import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.consumer.BatchHandler;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value PostgreSQL cannot hold (NUL inside text) under each value policy: {@code park} keeps the rest of the batch
 * and of the partition's tables going, parks the row and every later change of its key; {@code map} strips the NUL;
 * {@code fail} stops with one line naming group, partition, SCN, table, column and key, classified FATAL (not retried).
 */
class UnfitValuesIT {
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private static TableSchema t(String db) {
    return TableSchema.of("src", db, "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.text("s", ColumnType.TEXT, "utf8mb4")), List.of("id"));
  }

  private static TableSchema other(String db) {
    return TableSchema.of("src", db, "other", List.of(Column.of("id", ColumnType.BIGINT).notNull()), List.of("id"));
  }

  private JdbcApplier applier(Target t, UnfitValueStrategy policy) {
    return new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(SchemaChangePolicy.APPLY)
        .withUnfitValues(policy), null, new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()), meters,
        Clock.systemUTC());
  }

  @Test
  void parkKeepsEverythingElseGoingAndParksTheKeysLaterChangesBehindIt() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      TableSchema s = t(t.database());
      TableSchema o = other(t.database());
      JdbcApplier applier = applier(t, UnfitValueStrategy.PARK);
      applier.apply(batch(-1, tx(1, create(s), create(o)),
          tx(2, ChangeEvent.insert(s, Row.of(s, 1L, "fine"), Scn.ZERO, 0, 0), ChangeEvent.insert(o, Row.of(o, 1L), Scn.ZERO, 0, 0)),
          tx(3, ChangeEvent.insert(s, Row.of(s, 2L, "a\u0000b"), Scn.ZERO, 0, 0), ChangeEvent.insert(o, Row.of(o, 2L), Scn.ZERO, 0, 0)),
          tx(4, ChangeEvent.update(s, Row.of(s, 2L, "a\u0000b"), Row.of(s, 2L, "later"), Scn.ZERO, 0, 0),
              ChangeEvent.insert(s, Row.of(s, 3L, "also fine"), Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id, s FROM shop.t ORDER BY id")).containsExactly("1|fine", "3|also fine");
      assertThat(rows(t, "SELECT id FROM shop.other ORDER BY id")).containsExactly("1", "2");
      assertThat(rows(t, "SELECT scn, op, event_key, reason FROM gridway_dead_letter ORDER BY id")).satisfiesExactly(
          first -> assertThat(first).startsWith("3|INSERT|id=2|group g partition 0 SCN 3 table " + t.database()
              + ".t column s key id=2: SQLSTATE 22").doesNotContain("INSERT INTO"),
          second -> assertThat(second).isEqualTo("4|UPDATE|id=2|behind an earlier parked change of the same key"));
      // a later batch: the key is still parked (until the operator replays or discards its changes)
      applier.apply(batch(-1, tx(5, ChangeEvent.delete(s, Row.of(s, 2L, "later"), Scn.ZERO, 0, 0),
          ChangeEvent.insert(o, Row.of(o, 3L), Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT count(*) FROM gridway_dead_letter")).containsExactly("3");
      assertThat(rows(t, "SELECT id FROM shop.other ORDER BY id")).containsExactly("1", "2", "3");
      assertThat(meters.counter("gridway.consumer.jdbc.parked").count()).isEqualTo(3);
    }
  }

  @Test
  void mapStripsTheNulAndFailStopsNamingThePlace() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      TableSchema s = t(t.database());
      applier(t, UnfitValueStrategy.MAP).apply(batch(-1, tx(1, create(s)),
          tx(2, ChangeEvent.insert(s, Row.of(s, 7L, "x\u0000y"), Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id, s FROM shop.t")).containsExactly("7|xy");
      JdbcApplier failing = applier(t, UnfitValueStrategy.FAIL);
      assertThatThrownBy(() -> failing.apply(batch(-1, tx(3, ChangeEvent.insert(s, Row.of(s, 8L, "\u0000"), Scn.ZERO, 0, 0)))))
          .isInstanceOfSatisfying(UnfitValueException.class, e -> {
            assertThat(e.getMessage()).contains("group g partition 0 SCN 3 table " + t.database() + ".t column s key id=8")
                .doesNotContain("\n").hasSizeLessThan(400);
            assertThat(failing.classify(e)).isEqualTo(BatchHandler.Failure.FATAL);
          });
      assertThat(rows(t, "SELECT id FROM shop.t")).containsExactly("7");
    }
  }

  @Test
  void aTablesUnfitValuesRuleOverridesTheAppliersSetting() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      TableSchema s = t(t.database());
      TableSchema u = TableSchema.of("src", t.database(), "u", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.text("s", ColumnType.TEXT, "utf8mb4")), List.of("id"));
      ApplyPolicy policy = PolicyLoader.create().parse("apply.yaml", """
          name: apply
          version: 1
          rules:
            - name: strip
              tables: ['*.t']
              unfit-values: map
          """).apply();
      JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect())
          .withSchemaChange(SchemaChangePolicy.APPLY).withUnfitValues(UnfitValueStrategy.FAIL), policy,
          new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()), meters, Clock.systemUTC());
      applier.apply(batch(-1, tx(1, create(s), create(u)), tx(2, ChangeEvent.insert(s, Row.of(s, 1L, "a\u0000b"), Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id, s FROM shop.t")).containsExactly("1|ab");
      assertThatThrownBy(() -> applier.apply(batch(-1, tx(3, ChangeEvent.insert(u, Row.of(u, 1L, "c\u0000"), Scn.ZERO, 0, 0)))))
          .isInstanceOf(UnfitValueException.class).hasMessageContaining("table " + t.database() + ".u column s key id=1");
    }
  }

  @Test
  void parkedChangesAreListedReplayedInOrderOnceTheyFitAndDiscarded() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      TableSchema s = t(t.database());
      JdbcApplier running = applier(t, UnfitValueStrategy.PARK);
      running.apply(batch(-1, tx(1, create(s)),
          tx(3, ChangeEvent.insert(s, Row.of(s, 2L, "a\u0000b"), Scn.ZERO, 0, 0)),
          tx(4, ChangeEvent.update(s, Row.of(s, 2L, "a\u0000b"), Row.of(s, 2L, "b\u0000c"), Scn.ZERO, 0, 0)),
          tx(5, ChangeEvent.insert(s, Row.of(s, 9L, "\u0000"), Scn.ZERO, 0, 0))));
      ParkedChanges.Selection key2 = new ParkedChanges.Selection(t.database() + ".t", "id=2");
      assertThat(new ParkedChanges(t.pool(), running).list(ParkedChanges.Selection.all()))
          .extracting(p -> p.scn() + " " + p.op() + " " + p.key()).containsExactly("3 INSERT id=2", "4 UPDATE id=2", "5 INSERT id=9");

      // still refused under park: nothing applied, and the key's later change stays behind its first
      ParkedChanges.Replayed refused = new ParkedChanges(t.pool(), running).replay(key2);
      assertThat(refused.applied()).isZero();
      assertThat(refused.stillParked()).singleElement().asString().startsWith(t.database() + ".t id=2 (SCN 3): ");
      // the operator chooses map: the key's changes apply in SCN order (the last sets the row) and leave the table
      ParkedChanges.Replayed replayed = new ParkedChanges(t.pool(), applier(t, UnfitValueStrategy.MAP)).replay(key2);
      assertThat(replayed.applied()).isEqualTo(2);
      assertThat(replayed.stillParked()).isEmpty();
      assertThat(rows(t, "SELECT id, s FROM shop.t ORDER BY id")).containsExactly("2|bc");

      // the running consumer still held key 2 back in memory: its next change applies, it is not parked
      running.apply(batch(-1, tx(6, ChangeEvent.update(s, Row.of(s, 2L, "bc"), Row.of(s, 2L, "again"), Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id, s FROM shop.t ORDER BY id")).containsExactly("2|again");
      assertThat(new ParkedChanges(t.pool(), running).discard(new ParkedChanges.Selection(t.database() + ".t", null)))
          .isEqualTo(1);
      assertThat(rows(t, "SELECT count(*) FROM gridway_dead_letter")).containsExactly("0");
    }
  }
}
