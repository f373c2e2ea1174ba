package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.create;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.applier.jdbc.JdbcApplierConfig.SchemaChangePolicy;
import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JDBC applier against the private MariaDB and PostgreSQL: every type, exactly-once skipping, fencing, DDL. */
class JdbcApplierIT {
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private JdbcApplier applier(Target t, JdbcCheckpointStore store) {
    return new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(SchemaChangePolicy.APPLY)
        .withOrigin("grid-a"), null, store, meters, Clock.systemUTC());
  }

  @Test
  void everyTypeReplicatesIntoMariaDbExactly() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      everyType(t);
    }
  }

  @Test
  void everyTypeReplicatesIntoPostgresPerTheMapping() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      everyType(t);
    }
  }

  private void everyType(Target t) throws Exception {
    TableSchema s = TypeRows.schema(t.database());
    List<Row> rows = TypeRows.rows(s);
    JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
    JdbcApplier applier = applier(t, store);
    applier.apply(batch(-1, tx(10, create(s)), tx(11, ChangeEvent.insert(s, rows.get(0), io.gridway.core.event.Scn.ZERO, 0, 0),
        ChangeEvent.insert(s, rows.get(1), io.gridway.core.event.Scn.ZERO, 0, 0)), tx(12, ChangeEvent.insert(s, rows.get(2), io.gridway.core.event.Scn.ZERO, 0, 0))));
    assertSame(t, s, rows);
    // an update of every column back and forth, and a redelivered batch: still the same rows
    applier.apply(batch(-1, tx(13, ChangeEvent.update(s, rows.get(0), rows.get(1).stream().toList().isEmpty() ? null
        : swapKey(s, rows.get(1), 1L), io.gridway.core.event.Scn.ZERO, 0, 0)), tx(14, ChangeEvent.update(s, swapKey(s, rows.get(1), 1L),
        rows.get(0), io.gridway.core.event.Scn.ZERO, 0, 0))));
    applier.apply(batch(-1, tx(11, ChangeEvent.insert(s, rows.get(0), io.gridway.core.event.Scn.ZERO, 0, 0))));
    assertSame(t, s, rows);
    assertThat(store.read("g", 0)).extracting(c -> c.scn().value()).containsExactly(14L);
  }

  private static Row swapKey(TableSchema s, Row row, long key) {
    Object[] values = row.toArray();
    values[0] = key;
    return Row.of(s, values);
  }

  private static void assertSame(Target t, TableSchema s, List<Row> rows) throws Exception {
    try (Connection c = t.pool().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM " + t.dialect().table(s.database(), s.table()) + " ORDER BY 1")) {
      for (Row want : rows) {
        assertThat(rs.next()).isTrue();
        TypeRows.assertMapped(t.dialect(), s, want, TypeRows.read(t.dialect(), s, rs));
      }
      assertThat(rs.next()).isFalse();
      c.rollback();
    }
  }

  @Test
  void keyChangesDeletesKeylessTablesAndRedeliveryApplyExactlyOnce() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      TableSchema keyed = TableSchema.of("src", t.database(), "orders",
          List.of(Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));
      TableSchema log = TableSchema.of("src", t.database(), "log",
          List.of(Column.of("n", ColumnType.BIGINT), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of());
      JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      JdbcApplier applier = applier(t, store);
      Row a1 = Row.of(keyed, 1L, "a");
      Row a2 = Row.of(keyed, 2L, "a");
      var b1 = batch(-1, tx(1, create(keyed), create(log)), tx(2, ChangeEvent.insert(keyed, a1, io.gridway.core.event.Scn.ZERO, 0, 0),
          ChangeEvent.insert(log, Row.of(log, 1L, "x"), io.gridway.core.event.Scn.ZERO, 0, 0), ChangeEvent.insert(log, Row.of(log, 1L, "x"), io.gridway.core.event.Scn.ZERO, 0, 0)),
          tx(3, ChangeEvent.update(keyed, a1, a2, io.gridway.core.event.Scn.ZERO, 0, 0), ChangeEvent.insert(keyed, Row.of(keyed, 5L, "e"), io.gridway.core.event.Scn.ZERO, 0, 0)),
          tx(4, ChangeEvent.delete(keyed, Row.of(keyed, 5L, "e"), io.gridway.core.event.Scn.ZERO, 0, 0),
              ChangeEvent.update(log, Row.of(log, 1L, "x"), Row.of(log, 1L, "y"), io.gridway.core.event.Scn.ZERO, 0, 0)));
      applier.apply(b1);
      applier.apply(b1); // redelivered after a crash: skipped whole
      JdbcApplier restarted = applier(t, new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()));
      restarted.apply(b1); // a new process reads the checkpoint back (and claims a newer generation)
      assertThat(rows(t, "SELECT id, v FROM shop.orders ORDER BY id")).containsExactly("2|a");
      assertThat(rows(t, "SELECT n, v FROM shop.log ORDER BY v")).containsExactly("1|x", "1|y");
      assertThat(rows(t, "SELECT origin, transactions FROM gridway_origin")).containsExactly("grid-a|1");
      assertThat(meters.counter("gridway.consumer.jdbc.skipped.windows").count()).isEqualTo(8);
    }
  }

  @Test
  void microPartitionsKeepOneCheckpointRowEach() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      TableSchema s = TableSchema.of("src", t.database(), "t",
          List.of(Column.of("id", ColumnType.BIGINT).notNull()), List.of("id"));
      JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      JdbcApplier applier = applier(t, store);
      applier.apply(batch(-1, tx(1, create(s))));
      applier.apply(batch(0, tx(5, ChangeEvent.insert(s, Row.of(s, 1L), io.gridway.core.event.Scn.ZERO, 0, 0))));
      applier.apply(batch(1, tx(5, ChangeEvent.insert(s, Row.of(s, 2L), io.gridway.core.event.Scn.ZERO, 0, 0)), tx(6,
          ChangeEvent.insert(s, Row.of(s, 3L), io.gridway.core.event.Scn.ZERO, 0, 0))));
      applier.apply(batch(0, tx(5, ChangeEvent.insert(s, Row.of(s, 1L), io.gridway.core.event.Scn.ZERO, 0, 0)))); // redelivered: skipped
      assertThat(store.read("g", 0)).extracting(Checkpoint::microPartition, c -> c.scn().value())
          .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(-1, 1L), org.assertj.core.groups.Tuple.tuple(0, 5L),
              org.assertj.core.groups.Tuple.tuple(1, 6L));
    }
  }

  @Test
  void aWriterWithAnOlderGenerationIsRejectedAndItsDataRolledBack() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      TableSchema s = TableSchema.of("src", t.database(), "t",
          List.of(Column.of("id", ColumnType.BIGINT).notNull()), List.of("id"));
      JdbcCheckpointStore oldOwner = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      JdbcApplier old = applier(t, oldOwner);
      long g1 = oldOwner.claim("g", 0);
      old.apply(batch(-1, tx(1, create(s)), tx(2, ChangeEvent.insert(s, Row.of(s, 1L), io.gridway.core.event.Scn.ZERO, 0, 0))));
      JdbcCheckpointStore newOwner = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      long g2 = newOwner.claim("g", 0);
      assertThat(g2).isGreaterThan(g1);
      assertThatThrownBy(() -> old.apply(batch(-1, tx(3, ChangeEvent.insert(s, Row.of(s, 2L), io.gridway.core.event.Scn.ZERO, 0, 0)))))
          .isInstanceOf(CheckpointFencedException.class).hasMessageContaining("fenced");
      assertThatThrownBy(() -> oldOwner.write(List.of(Checkpoint.of("g", 0, new io.gridway.core.event.Scn(9), g1,
          java.time.Instant.now())))).isInstanceOf(CheckpointFencedException.class);
      assertThat(rows(t, "SELECT id FROM shop.t")).containsExactly("1");
      JdbcApplier fresh = applier(t, newOwner);
      fresh.apply(batch(-1, tx(3, ChangeEvent.insert(s, Row.of(s, 2L), io.gridway.core.event.Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id FROM shop.t ORDER BY id")).containsExactly("1", "2");
    }
  }

  @Test
  void schemaChangesApplyIgnoreOrStop() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      TableSchema v1 = TableSchema.of("src", t.database(), "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.text("a", ColumnType.TEXT, "utf8mb4")), List.of("id"));
      TableSchema v2 = TableSchema.of("src", t.database(), "t", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("b", ColumnType.INT)), List.of("id"));
      JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      applier(t, store).apply(batch(-1, tx(1, create(v1)), tx(2, ChangeEvent.insert(v1, Row.of(v1, 1L, "x"), io.gridway.core.event.Scn.ZERO, 0, 0)),
          tx(3, Targets.ddl(v2, "ALTER TABLE t DROP COLUMN a, ADD COLUMN b INT")),
          tx(4, ChangeEvent.insert(v2, Row.of(v2, 2L, 7L), io.gridway.core.event.Scn.ZERO, 0, 0))));
      assertThat(rows(t, "SELECT id, b FROM " + t.database() + ".t ORDER BY id")).containsExactly("1|null", "2|7");
      JdbcApplier stopping = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()), null, store, meters,
          Clock.systemUTC());
      assertThatThrownBy(() -> stopping.apply(batch(-1, tx(5, Targets.ddl(v2, "DROP TABLE t")))))
          .isInstanceOf(ConflictException.class).hasMessageContaining("SCN 5").hasMessageContaining("DROP TABLE t");
      new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(SchemaChangePolicy.IGNORE), null,
          store, meters, Clock.systemUTC()).apply(batch(-1, tx(5, Targets.ddl(v2, "DROP TABLE t"))));
      assertThat(rows(t, "SELECT id FROM " + t.database() + ".t ORDER BY id")).containsExactly("1", "2");
      applier(t, store).apply(batch(-1, tx(6, Targets.ddl(v2, "DROP TABLE t"))));
      assertThat(rows(t, "SELECT table_name FROM information_schema.tables WHERE table_schema = '" + t.database()
          + "' AND table_name = 't'")).isEmpty();
    }
  }

  static List<String> rows(Target t, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = t.pool().getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> cols = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          cols.add(String.valueOf(rs.getObject(i)));
        }
        out.add(String.join("|", cols));
      }
      c.rollback();
    }
    return out;
  }
}
