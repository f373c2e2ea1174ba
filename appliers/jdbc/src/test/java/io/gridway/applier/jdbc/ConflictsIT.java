package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyLoader;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each conflict strategy, with the conflict made on purpose: the target row is changed behind the grid's back, then
 * an insert of an existing key, an update whose before image no longer matches, and a delete of a missing row arrive.
 */
class ConflictsIT {
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private Target t;
  private JdbcApplier applier;

  private TableSchema table(String name) {
    return TableSchema.of("src", t.database(), name, List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.text("v", ColumnType.VARCHAR, "utf8mb4"), Column.of("version", ColumnType.BIGINT)), List.of("id"));
  }

  @BeforeEach
  void setUp() throws Exception {
    t = Targets.postgres(PrivatePostgres.shared());
    for (String name : List.of("sw", "tw", "nw", "nwc", "fail", "park")) {
      try (var c = t.pool().getConnection(); var s = c.createStatement()) {
        s.execute(t.dialect().createTable(t.dialect().table(t.database(), name), table(name)));
        s.execute("INSERT INTO shop." + name + " VALUES (1, 'target', 5), (2, 'target', 5)");
        c.commit();
      }
    }
    Policy policy = PolicyLoader.create().parse("apply.yaml", """
        name: apply
        version: 1
        rules:
          - name: tw
            tables: [shop.tw]
            conflict: target-wins
          - name: nw
            tables: [shop.nw]
            conflict: {strategy: newest-wins, column: version}
          - name: nwc
            tables: [shop.nwc]
            conflict: {strategy: newest-wins}
          - name: fail
            tables: [shop.fail]
            conflict: fail
          - name: park
            tables: [shop.park]
            conflict: park
        """);
    applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()), policy.apply(),
        new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()), meters, Clock.systemUTC());
  }

  @org.junit.jupiter.api.AfterEach
  void tearDown() {
    t.close();
  }

  /** Insert of existing key 1 (version 6), update of 2 with a stale before image (version 4 → 7), delete of missing 3. */
  private void conflicts(String name, long scn) throws Exception {
    TableSchema s = table(name);
    applier.apply(batch(-1, tx(scn, ChangeEvent.insert(s, Row.of(s, 1L, "source", 6L), Scn.ZERO, 0, 0),
        ChangeEvent.update(s, Row.of(s, 2L, "stale", 4L), Row.of(s, 2L, "source", 7L), Scn.ZERO, 0, 0),
        ChangeEvent.delete(s, Row.of(s, 3L, "gone", 1L), Scn.ZERO, 0, 0),
        ChangeEvent.insert(s, Row.of(s, 4L, "new", 1L), Scn.ZERO, 0, 0))));
  }

  private double conflicts(String table, String strategy) {
    return meters.find("gridway.consumer.jdbc.conflicts").tag("table", "shop." + table).tag("strategy", strategy)
        .counters().stream().mapToDouble(c -> c.count()).sum();
  }

  @Test
  void sourceWinsOverwritesWithoutReading() throws Exception {
    conflicts("sw", 10);
    assertThat(rows(t, "SELECT id, v FROM shop.sw ORDER BY id")).containsExactly("1|source", "2|source", "4|new");
  }

  @Test
  void targetWinsKeepsTheTargetRowAndCountsEachConflict() throws Exception {
    conflicts("tw", 10);
    assertThat(rows(t, "SELECT id, v FROM shop.tw ORDER BY id")).containsExactly("1|target", "2|target", "4|new");
    assertThat(conflicts("tw", "target-wins")).isEqualTo(3);
  }

  @Test
  void newestWinsByColumnKeepsTheHigherVersion() throws Exception {
    try (var c = t.pool().getConnection(); var s = c.createStatement()) {
      s.execute("UPDATE shop.nw SET version = 9 WHERE id = 2"); // target newer than the incoming 7
      c.commit();
    }
    conflicts("nw", 10);
    assertThat(rows(t, "SELECT id, v, version FROM shop.nw ORDER BY id"))
        .containsExactly("1|source|6", "2|target|9", "4|new|1");
    assertThat(conflicts("nw", "newest-wins")).isEqualTo(3);
  }

  @Test
  void newestWinsByCommitTimeLetsTheIncomingChangeWin() throws Exception {
    conflicts("nwc", 10);
    assertThat(rows(t, "SELECT id, v FROM shop.nwc ORDER BY id")).containsExactly("1|source", "2|source", "4|new");
  }

  @Test
  void failStopsNamingScnTableAndKeyAndWritesNothing() {
    assertThatThrownBy(() -> conflicts("fail", 10)).isInstanceOf(ConflictException.class)
        .hasMessageContaining("SCN " + new Scn(10)).hasMessageContaining("shop.fail").hasMessageContaining("id=1");
    assertThat(conflicts("fail", "fail")).isEqualTo(1);
  }

  @Test
  void parkWritesTheEventAndReasonToTheDeadLetterTableAndGoesOn() throws Exception {
    conflicts("park", 10);
    assertThat(rows(t, "SELECT id, v FROM shop.park ORDER BY id")).containsExactly("1|target", "2|target", "4|new");
    assertThat(rows(t, "SELECT scn, source_table, op, event_key, reason FROM gridway_dead_letter ORDER BY id"))
        .containsExactly("10|shop.park|INSERT|id=1|insert-exists (strategy park)",
            "10|shop.park|UPDATE|id=2|before-mismatch (strategy park)",
            "10|shop.park|DELETE|id=3|row-missing (strategy park)");
    assertThat(rows(t, "SELECT event FROM gridway_dead_letter ORDER BY id").get(0)).contains("\"source\"").contains("\"op\":\"insert\"");
  }
}
