package io.gridway.applier.phoenix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.PolicyLoader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The applier's guarded writes, tombstones, change log and checkpoint store on the real mini cluster, fed batches
 * directly: the replays a crash causes (a batch again, older changes after newer ones) leave the newest state.
 */
@Timeout(300)
class GuardedWritesIT {
  private static PhoenixCluster cluster;
  private static PhoenixConnections connections;

  @BeforeAll
  static void cluster() throws Exception {
    cluster = PhoenixCluster.get();
    connections = new PhoenixConnections(cluster.url(), GuardedWritesIT.class.getClassLoader());
  }

  private static TableSchema schema(String db) {
    return TableSchema.of("src", db, "items", List.of(Column.of("id", ColumnType.BIGINT).notNull(),
        Column.of("name", ColumnType.VARCHAR), Column.of("qty", ColumnType.INT)), List.of("id"));
  }

  private static Transaction tx(long scn, ChangeEvent... events) {
    return new Transaction(new Scn(scn), scn * 1000, null, null, List.of(events));
  }

  private static ChangeEvent insert(TableSchema s, long scn, long id, String name, Long qty) {
    return ChangeEvent.insert(s, Row.of(s, id, name, qty), new Scn(scn), scn * 1000, 0);
  }

  private static ChangeEvent update(TableSchema s, long scn, long id, String before, long newId, String name) {
    return ChangeEvent.update(s, Row.of(s, id, before, null), Row.of(s, newId, name, null), new Scn(scn), scn * 1000, 0);
  }

  private static ChangeEvent delete(TableSchema s, long scn, long id) {
    return ChangeEvent.delete(s, Row.of(s, id, "x", null), new Scn(scn), scn * 1000, 0);
  }

  private static void apply(PhoenixApplier applier, Transaction... txs) throws Exception {
    applier.apply(JdbcTestBatches.batch(0, -1, Arrays.asList(txs)));
  }

  private static List<String> rows(String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = cluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  @Test
  void olderAndRepeatedChangesNeverOverwriteNewerOnes() throws Exception {
    TableSchema s = schema("guards");
    PhoenixApplier applier = new PhoenixApplier(connections, PhoenixTargetConfig.rows(cluster.url()),
        new SimpleMeterRegistry());
    apply(applier, tx(10, insert(s, 10, 1, "a", 1L), insert(s, 10, 2, "b", null)), tx(20, update(s, 20, 1, "a", 1, "a2")));
    String view = "SELECT \"id\", \"name\", \"qty\" FROM \"guards\".\"items\" ORDER BY \"id\"";
    assertThat(rows(view)).containsExactly("1|a2|null", "2|b|null");

    // a crash replays from an older checkpoint: the same changes again, and older ones after newer ones
    apply(applier, tx(10, insert(s, 10, 1, "a", 1L), insert(s, 10, 2, "b", null)), tx(15, update(s, 15, 1, "a", 1, "old")));
    apply(applier, tx(20, update(s, 20, 1, "a", 1, "a2")));
    assertThat(rows(view)).containsExactly("1|a2|null", "2|b|null");

    // a delete keeps its guard as a tombstone: hidden by the view, and an older insert replayed stays hidden
    apply(applier, tx(30, delete(s, 30, 2)));
    apply(applier, tx(10, insert(s, 10, 2, "b", null)));
    assertThat(rows(view)).containsExactly("1|a2|null");
    assertThat(rows("SELECT \"id\", \"GW_DELETED\" FROM \"guards\".\"items_gw\" ORDER BY \"id\""))
        .containsExactly("1|false", "2|true");

    // a newer insert revives the key; a key change tombstones the old key and writes the new one, same SCN
    apply(applier, tx(40, insert(s, 40, 2, "b2", 7L)), tx(50, update(s, 50, 1, "a2", 3, "moved")));
    apply(applier, tx(40, insert(s, 40, 2, "b2", 7L)), tx(50, update(s, 50, 1, "a2", 3, "moved")));
    assertThat(rows(view)).containsExactly("2|b2|7", "3|moved|null");

    // positions order the changes of one transaction: the later one of the same row wins, also on replay
    apply(applier, tx(60, update(s, 60, 2, "b2", 2, "first"), update(s, 60, 2, "first", 2, "second")));
    apply(applier, tx(60, update(s, 60, 2, "b2", 2, "first")));
    assertThat(rows(view)).containsExactly("2|second|null", "3|moved|null");
  }

  @Test
  void keylessTablesAreAppendOnlyAndKeepEachInsertOnce() throws Exception {
    TableSchema s = TableSchema.of("src", "keyless", "audit", List.of(Column.of("what", ColumnType.VARCHAR)), List.of());
    PhoenixApplier applier = new PhoenixApplier(connections, PhoenixTargetConfig.rows(cluster.url()),
        new SimpleMeterRegistry());
    Transaction twins = tx(10, ChangeEvent.insert(s, Row.of(s, "same"), new Scn(10), 10_000, 0),
        ChangeEvent.insert(s, Row.of(s, "same"), new Scn(10), 10_000, 0));
    apply(applier, twins);
    apply(applier, twins);
    assertThat(rows("SELECT \"what\" FROM \"keyless\".\"audit\"")).containsExactly("same", "same");
    Transaction delete = tx(20, ChangeEvent.delete(s, Row.of(s, "same"), new Scn(20), 20_000, 0));
    assertThatThrownBy(() -> apply(applier, delete)).isInstanceOf(UnsupportedChangeException.class)
        .hasMessageContaining("keyless.audit");
    assertThat(applier.classify(new UnsupportedChangeException("x"))).isEqualTo(io.gridway.consumer.BatchHandler.Failure.FATAL);
  }

  /** TRUNCATE of the keyed table, then of the keyless one, in one source transaction. */
  private static Transaction truncate(TableSchema keyed, TableSchema keyless, long scn) {
    return tx(scn, new ChangeEvent(keyed, io.gridway.core.event.Operation.TRUNCATE, null, null, null, new Scn(scn),
        scn * 1000, 0, ""), new ChangeEvent(keyless, io.gridway.core.event.Operation.TRUNCATE, null, null, null,
        new Scn(scn), scn * 1000, 0, ""));
  }

  /**
   * The relay copies a TRUNCATE (SCN 30) to every partition, and partitions apply at their own pace: here partition A
   * is at the TRUNCATE, C already past it (a truncated key reused, a new key), B behind it (an older insert not yet
   * applied). Each copy tombstones what is older than the TRUNCATE, so the end state is the source's whatever the
   * order, and replays of older inserts and of the TRUNCATE itself leave it so.
   */
  @Test
  void aTruncateRemovesExactlyTheOlderRowsWhicheverPartitionAppliesItWhenAndAfterReplays() throws Exception {
    TableSchema s = schema("trunc");
    TableSchema log = TableSchema.of("src", "trunc", "audit", List.of(Column.of("what", ColumnType.VARCHAR)), List.of());
    PhoenixApplier applier = new PhoenixApplier(connections, PhoenixTargetConfig.rows(cluster.url()),
        new SimpleMeterRegistry());
    Transaction older = tx(10, insert(s, 10, 1, "a", 1L), insert(s, 10, 2, "b", 2L),
        ChangeEvent.insert(log, Row.of(log, "old"), new Scn(10), 10_000, 0));
    Transaction lateOlder = tx(25, insert(s, 25, 5, "e", 5L), ChangeEvent.insert(log, Row.of(log, "late"), new Scn(25),
        25_000, 0));
    Transaction newer = tx(40, insert(s, 40, 2, "b-again", 20L), insert(s, 40, 6, "f", 6L),
        ChangeEvent.insert(log, Row.of(log, "new"), new Scn(40), 40_000, 0));
    String view = "SELECT \"id\", \"name\", \"qty\" FROM \"trunc\".\"items\" ORDER BY \"id\"";
    String audit = "SELECT \"what\" FROM \"trunc\".\"audit\" ORDER BY \"what\"";

    apply(applier, older, truncate(s, log, 30)); // partition A, in one batch with the older rows
    assertThat(rows(view)).isEmpty();
    apply(applier, newer); // partition C, past the TRUNCATE, before B reached it
    apply(applier, lateOlder); // partition B, catching up: its older rows are visible for a moment
    assertThat(rows(view)).containsExactly("2|b-again|20", "5|e|5", "6|f|6");
    apply(applier, truncate(s, log, 30)); // B's copy of the TRUNCATE
    assertThat(rows(view)).containsExactly("2|b-again|20", "6|f|6");
    assertThat(rows(audit)).containsExactly("new");

    // a kill replays every partition from before the TRUNCATE: older rows, the TRUNCATE, newer rows, in any order
    apply(applier, older);
    apply(applier, lateOlder);
    assertThat(rows(view)).as("older keys the TRUNCATE tombstoned stay hidden").containsExactly("2|b-again|20",
        "6|f|6");
    apply(applier, truncate(s, log, 30));
    apply(applier, newer);
    assertThat(rows(view)).containsExactly("2|b-again|20", "6|f|6");
    assertThat(rows(audit)).containsExactly("new");
    assertThat(rows("SELECT \"id\", \"GW_DELETED\", CAST(\"GW_GUARD\" AS BIGINT) FROM \"trunc\".\"items_gw\""
        + " ORDER BY \"id\""))
        .containsExactly("1|true|" + (30L << 32), "2|false|" + (40L << 32), "5|true|" + (30L << 32),
            "6|false|" + ((40L << 32) + 1));
  }

  @Test
  void changeLogHoldsEachChangeOnceWhateverIsReplayed() throws Exception {
    TableSchema s = schema("logged");
    PhoenixTargetConfig config = new PhoenixTargetConfig(cluster.url(), "change-log", 4, null, "log_it");
    PhoenixApplier applier = new PhoenixApplier(connections, config, new SimpleMeterRegistry());
    Transaction first = tx(10, insert(s, 10, 1, "a", 1L), insert(s, 10, 2, "b", null));
    Transaction second = tx(20, update(s, 20, 1, "a", 1, "a2"), delete(s, 20, 2));
    apply(applier, first, second);
    apply(applier, second);
    apply(applier, first);
    assertThat(rows("SELECT \"scn\", \"position\", \"table\", \"op\", \"key\", \"before\", \"after\" FROM \"log_it\""
        + " ORDER BY \"scn\", \"position\"")).containsExactly(
        "10|0|items|insert|{\"id\":1}|null|{\"id\":1,\"name\":\"a\",\"qty\":1}",
        "10|1|items|insert|{\"id\":2}|null|{\"id\":2,\"name\":\"b\",\"qty\":null}",
        "20|0|items|update|{\"id\":1}|{\"id\":1,\"name\":\"a\",\"qty\":null}|{\"id\":1,\"name\":\"a2\",\"qty\":null}",
        "20|1|items|delete|{\"id\":2}|{\"id\":2,\"name\":\"x\",\"qty\":null}|null");
  }

  @Test
  void theApplyPolicyRoutesAndLaysOutEachTableAndRefusesAConflictRuleGuardsCannotKeep() throws Exception {
    ApplyPolicy policy = PolicyLoader.create().parse("apply.yaml", """
        name: phoenix-layout
        version: 1
        rules:
          - name: to-lake
            tables: [shop.*]
            route: {database: lake, table: '{database}_{table}'}
          - name: wide
            tables: [shop.items]
            storage: {salt-buckets: 4, column-family: d}
          - name: newest
            tables: [hr.items]
            conflict: {strategy: newest-wins, column: qty}
        """).apply();
    PhoenixApplier applier = new PhoenixApplier(connections, new PhoenixTargetConfig(cluster.url(), null, null, "f", null),
        () -> policy, new SimpleMeterRegistry());
    TableSchema shop = schema("shop");
    TableSchema other = schema("plain");
    apply(applier, tx(10, insert(shop, 10, 1, "a", 1L), insert(other, 10, 2, "b", 2L)));
    assertThat(rows("SELECT \"id\", \"name\" FROM \"lake\".\"shop_items\"")).containsExactly("1|a");
    assertThat(rows("SELECT \"id\", \"name\" FROM \"plain\".\"items\"")).containsExactly("2|b");
    // the rule's layout for the routed table; the applier's own column family (f) and no salt for the other one
    assertThat(rows("SELECT SALT_BUCKETS FROM SYSTEM.CATALOG WHERE TABLE_SCHEM = 'lake' AND TABLE_NAME = 'shop_items_gw'"
        + " AND COLUMN_NAME IS NULL AND COLUMN_FAMILY IS NULL")).containsExactly("4");
    assertThat(rows("SELECT COLUMN_FAMILY FROM SYSTEM.CATALOG WHERE TABLE_SCHEM = 'lake' AND TABLE_NAME = 'shop_items_gw'"
        + " AND COLUMN_NAME = 'name'")).containsExactly("d");
    assertThat(rows("SELECT SALT_BUCKETS FROM SYSTEM.CATALOG WHERE TABLE_SCHEM = 'plain' AND TABLE_NAME = 'items_gw'"
        + " AND COLUMN_NAME IS NULL AND COLUMN_FAMILY IS NULL")).containsExactly("null");
    assertThat(rows("SELECT COLUMN_FAMILY FROM SYSTEM.CATALOG WHERE TABLE_SCHEM = 'plain' AND TABLE_NAME = 'items_gw'"
        + " AND COLUMN_NAME = 'name'")).containsExactly("f");

    Exception refused = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
        () -> apply(applier, tx(20, insert(schema("hr"), 20, 1, "x", 1L))));
    assertThat(refused).isInstanceOf(UnsupportedChangeException.class)
        .hasMessageContaining("hr.items").hasMessageContaining("newest-wins").hasMessageContaining("rule 'newest'");
    assertThat(applier.classify(refused)).isEqualTo(io.gridway.consumer.BatchHandler.Failure.FATAL);
  }

  @Test
  void checkpointsAreStoredWholeAndFencedByNewerClaims() {
    PhoenixCheckpointStore store = new PhoenixCheckpointStore(connections, Clock.systemUTC());
    assertThat(store.read("ckpt", 3)).isEmpty();
    long first = store.claim("ckpt", 3);
    Instant now = Instant.now();
    store.write(List.of(Checkpoint.of("ckpt", 3, new Scn(100), first, now), new Checkpoint("ckpt", 3, 0, new Scn(120),
        first, now), new Checkpoint("ckpt", 3, 1, new Scn(-5), first, now)));
    assertThat(store.read("ckpt", 3)).extracting(c -> c.microPartition() + ":" + c.scn().value() + "@" + c.generation())
        .containsExactly("-1:100@" + first, "0:120@" + first, "1:-5@" + first);
    long second = store.claim("ckpt", 3);
    assertThat(second).isGreaterThan(first);
    assertThatThrownBy(() -> store.write(List.of(Checkpoint.of("ckpt", 3, new Scn(200), first, now))))
        .isInstanceOf(CheckpointFencedException.class);
    assertThat(store.read("ckpt", 3)).extracting(c -> c.scn().value()).containsExactly(100L, 120L, -5L);
    store.write(List.of(Checkpoint.of("ckpt", 3, new Scn(300), second, now)));
    assertThat(store.read("ckpt", 3)).extracting(c -> c.scn().value() + "@" + c.generation())
        .containsExactly("300@" + second);
  }

  @Test
  void theSnapshotCursorIsKeptWithTheScnAndFencedWithIt() throws Exception {
    try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
      // the table as a store without the cursor created it, with a partition's checkpoint in it
      s.execute("DROP TABLE IF EXISTS \"gridway_phoenix_checkpoint\"");
      s.execute("CREATE TABLE \"gridway_phoenix_checkpoint\" (\"group\" VARCHAR NOT NULL, \"partition\" INTEGER NOT NULL,"
          + " \"claimed\" BIGINT, \"generation\" BIGINT, \"positions\" VARCHAR, \"updated\" TIMESTAMP,"
          + " CONSTRAINT \"pk\" PRIMARY KEY (\"group\", \"partition\"))");
      s.execute("UPSERT INTO \"gridway_phoenix_checkpoint\" VALUES ('old', 0, 1, 1, '-1:500', CURRENT_TIME())");
      c.commit();
      assertThat(PhoenixCheckpointStore.hasSnapshotColumn(c)).isFalse();
    }
    PhoenixCheckpointStore store = new PhoenixCheckpointStore(connections, Clock.systemUTC());
    try (Connection c = cluster.connect()) {
      assertThat(PhoenixCheckpointStore.hasSnapshotColumn(c)).isTrue();
    }
    assertThat(store.read("old", 0)).singleElement().satisfies(old -> {
      assertThat(old.scn()).isEqualTo(new Scn(500));
      assertThat(old.snapshot()).isNull();
    });
    assertThat(store.keepsSnapshotCursor()).isTrue();
    long first = store.claim("cursor", 1);
    Instant now = Instant.now();
    String cursor = "shop.orders\n[42,\"Zoë \\\"x\\\"\"]";
    store.write(List.of(new Checkpoint("cursor", 1, Checkpoint.WHOLE, new Scn(-2), first, now, cursor),
        new Checkpoint("cursor", 1, 0, new Scn(90), first, now)));
    // a restarted consumer's store reads it back, on the partition's own checkpoint only
    PhoenixCheckpointStore restarted = new PhoenixCheckpointStore(connections, Clock.systemUTC());
    assertThat(restarted.read("cursor", 1)).extracting(Checkpoint::snapshot).containsExactly(cursor, null);
    long second = restarted.claim("cursor", 1);
    assertThatThrownBy(() -> store.write(List.of(new Checkpoint("cursor", 1, Checkpoint.WHOLE, new Scn(-1), first, now,
        "shop.orders\n[99]")))).isInstanceOf(CheckpointFencedException.class);
    assertThat(restarted.read("cursor", 1)).extracting(Checkpoint::snapshot).containsExactly(cursor, null);
    restarted.write(List.of(new Checkpoint("cursor", 1, Checkpoint.WHOLE, new Scn(-1), second, now, Checkpoint.SNAPSHOT_DONE)));
    assertThat(store.read("cursor", 1)).singleElement().extracting(Checkpoint::snapshot).isEqualTo(Checkpoint.SNAPSHOT_DONE);
    restarted.write(List.of(Checkpoint.of("cursor", 1, new Scn(120), second, now)));
    assertThat(store.read("cursor", 1)).singleElement().extracting(Checkpoint::snapshot).isNull();
  }
}
