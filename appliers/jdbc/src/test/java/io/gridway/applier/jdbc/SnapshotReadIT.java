package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.create;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshot READ events (docs/bootstrap.md §4) into both targets: an upsert by key whatever the target holds, a keyless
 * table's rows replaced inside the checkpointed transaction, and a redelivered snapshot window changing nothing.
 */
class SnapshotReadIT {

  @Test
  void readsUpsertKeyedRowsAndReplaceKeylessRowsInMariaDb() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      snapshotWindows(t);
    }
  }

  @Test
  void readsUpsertKeyedRowsAndReplaceKeylessRowsInPostgres() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      snapshotWindows(t);
    }
  }

  private static void snapshotWindows(Target t) throws Exception {
    TableSchema keyed = TableSchema.of("src", t.database(), "orders",
        List.of(Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.TEXT, "utf8mb4")), List.of("id"));
    TableSchema log = TableSchema.of("src", t.database(), "log",
        List.of(Column.of("n", ColumnType.BIGINT), Column.text("v", ColumnType.TEXT, "utf8mb4")), List.of());
    JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
    JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect())
        .withSchemaChange(JdbcApplierConfig.SchemaChangePolicy.APPLY), null, store, new SimpleMeterRegistry(), Clock.systemUTC());
    // changes that reached the target before the snapshot: key 1 at an older value, key 9 updated while missing
    // (source wins: inserted), and keyless rows that the snapshot's copy of the table replaces
    applier.apply(batch(-1, tx(100, create(keyed), create(log)),
        tx(200, ChangeEvent.insert(keyed, Row.of(keyed, 1L, "old"), Scn.ZERO, 0, 0),
            ChangeEvent.update(keyed, Row.of(keyed, 9L, "x"), Row.of(keyed, 9L, "nine"), Scn.ZERO, 0, 0),
            ChangeEvent.insert(log, Row.of(log, 1L, "a"), Scn.ZERO, 0, 0),
            ChangeEvent.insert(log, Row.of(log, 7L, "stale"), Scn.ZERO, 0, 0))));
    long snapshotScn = Scn.ofSnapshot(new Scn(200), 1).value();
    var snapshot = batch(-1, tx(snapshotScn,
        ChangeEvent.read(keyed, Row.of(keyed, 1L, "one"), Scn.ZERO, 0, 0),
        ChangeEvent.read(keyed, Row.of(keyed, 2L, "two"), Scn.ZERO, 0, 0),
        ChangeEvent.read(log, Row.of(log, 1L, "a"), Scn.ZERO, 0, 0),
        ChangeEvent.read(log, Row.of(log, 1L, "a"), Scn.ZERO, 0, 0), // a keyless table may hold equal rows
        ChangeEvent.read(log, Row.of(log, 2L, "b"), Scn.ZERO, 0, 0)));
    applier.apply(snapshot);
    assertThat(rows(t, "SELECT id, v FROM " + t.database() + ".orders ORDER BY id")).containsExactly("1|one", "2|two", "9|nine");
    assertThat(rows(t, "SELECT n, v FROM " + t.database() + ".log ORDER BY n, v")).containsExactly("1|a", "1|a", "2|b");
    assertThat(store.read("g", 0)).extracting(c -> c.scn().value()).containsExactly(snapshotScn);

    // the same window again (a restart that lost its checkpoint, a second relay replica's copy): nothing changes
    JdbcApplier restarted = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()), null,
        new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()), new SimpleMeterRegistry(), Clock.systemUTC());
    restarted.apply(snapshot);
    // applied once more for real: a group whose checkpoint is elsewhere re-seeding the same target
    JdbcApplier reset = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g2", t.dialect()), null,
        new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()), new SimpleMeterRegistry(), Clock.systemUTC());
    reset.apply(snapshot);
    assertThat(rows(t, "SELECT id, v FROM " + t.database() + ".orders ORDER BY id")).containsExactly("1|one", "2|two", "9|nine");
    assertThat(rows(t, "SELECT n, v FROM " + t.database() + ".log ORDER BY n, v")).containsExactly("1|a", "1|a", "2|b");
  }
}
