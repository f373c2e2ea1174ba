package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.create;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.consumer.JdbcTestBatches;
import io.gridway.consumer.SnapshotRange;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.KeyRouting;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * A snapshot chunk's key range deletes the target rows the source no longer has (docs/bootstrap.md §5.3), in both
 * targets: all of the range's absent rows when the range is the window's partition's alone, and under a key hash only
 * the absent rows whose key hashes to the window's partition — another partition's rows of the range stay, whatever
 * the chunk holds.
 */
class RangeDeletionIT {
  private static final int PARTITION = 0; // Targets.tx writes events of partition 0
  private static final KeyRouting.KeyHash HASH = new KeyRouting.KeyHash(4, 0);

  @Test
  void chunkRangesDeleteOnlyTheirPartitionsAbsentRowsInMariaDb() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      deleteThroughRanges(t);
    }
  }

  @Test
  void chunkRangesDeleteOnlyTheirPartitionsAbsentRowsInPostgres() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      deleteThroughRanges(t);
    }
  }

  private static void deleteThroughRanges(Target t) throws Exception {
    TableSchema ids = TableSchema.of("src", t.database(), "ids",
        List.of(Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.TEXT, "utf8mb4")),
        List.of("id"));
    JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
    JdbcApplier applier = new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect())
        .withSchemaChange(JdbcApplierConfig.SchemaChangePolicy.APPLY), null, store, new SimpleMeterRegistry(),
        Clock.systemUTC());
    List<ChangeEvent> inserts = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      inserts.add(ChangeEvent.insert(ids, Row.of(ids, id, "v" + id), Scn.ZERO, 0, 0));
    }
    applier.apply(batch(-1, tx(100, create(ids)), tx(200, inserts.toArray(ChangeEvent[]::new))));

    // (50, 150] under a key hash: the source deleted every tenth key; the chunk holds this partition's others
    LongPredicate gone = id -> id % 10 == 0;
    LongPredicate mine = id -> HASH.partitionOf(List.of(id)) == PARTITION;
    long first = Scn.ofSnapshot(new Scn(300), 1).value();
    applier.apply(JdbcTestBatches.chunk(PARTITION, first,
        chunk(ids, first, 51, 150, id -> mine.test(id) && !gone.test(id)), new SnapshotRange(ids, List.of(50L), List.of(150L), new SnapshotRange.KeyHashShare(4, 0, PARTITION))));
    // (150, end) as the partition's alone: rows above the chunk's last key go too
    long second = Scn.ofSnapshot(new Scn(300), 2).value();
    applier.apply(JdbcTestBatches.chunk(PARTITION, second, chunk(ids, second, 151, 180, id -> true),
        new SnapshotRange(ids, List.of(150L), null, null)));

    List<String> expected = new ArrayList<>();
    int otherPartitionsKept = 0;
    for (long id = 1; id <= 180; id++) {
      boolean deleted = id > 50 && id <= 150 && gone.test(id) && mine.test(id);
      if (!deleted) {
        expected.add(id + "|v" + id);
      }
      otherPartitionsKept += id > 50 && id <= 150 && gone.test(id) && !mine.test(id) ? 1 : 0;
    }
    assertThat(otherPartitionsKept).as("the test's keys cover other partitions").isPositive();
    assertThat(rows(t, "SELECT id, v FROM " + t.database() + ".ids ORDER BY id")).containsExactlyElementsOf(expected);
    assertThat(store.read("g", PARTITION)).extracting(c -> c.scn().value()).containsExactly(second);

    // a chunk without any row of this partition still deletes its partition's absent rows of the range
    long third = Scn.ofSnapshot(new Scn(400), 1).value();
    applier.apply(JdbcTestBatches.chunk(PARTITION, third, null,
        new SnapshotRange(ids, null, List.of(20L), new SnapshotRange.KeyHashShare(4, 0, PARTITION))));
    List<String> left = rows(t, "SELECT id FROM " + t.database() + ".ids WHERE id <= 20 ORDER BY id");
    List<String> others = new ArrayList<>();
    for (long id = 1; id <= 20; id++) {
      if (!mine.test(id)) {
        others.add(Long.toString(id));
      }
    }
    assertThat(left).containsExactlyElementsOf(others);

    // a composite key of an INT (an Integer from the target's driver) and a BIGINT: the range and the hash both on both
    TableSchema pairs = TableSchema.of("src", t.database(), "pairs", List.of(Column.of("a", ColumnType.INT).notNull(),
        Column.of("b", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.TEXT, "utf8mb4")), List.of("a", "b"));
    List<ChangeEvent> pairRows = new ArrayList<>();
    for (long a = 1; a <= 10; a++) {
      for (long b = 1; b <= 10; b++) {
        pairRows.add(ChangeEvent.insert(pairs, Row.of(pairs, a, b, a + "/" + b), Scn.ZERO, 0, 0));
      }
    }
    applier.apply(batch(-1, tx(500, create(pairs)), tx(600, pairRows.toArray(ChangeEvent[]::new))));
    java.util.function.BiPredicate<Long, Long> inRange = (a, b) -> (a > 3 || a == 3 && b > 5) && (a < 8 || a == 8 && b <= 2);
    java.util.function.BiPredicate<Long, Long> pairGone = (a, b) -> (a + b) % 3 == 0;
    java.util.function.BiPredicate<Long, Long> pairMine = (a, b) -> HASH.partitionOf(List.of(a, b)) == PARTITION;
    List<ChangeEvent> held = new ArrayList<>();
    for (long a = 1; a <= 10; a++) {
      for (long b = 1; b <= 10; b++) {
        if (inRange.test(a, b) && pairMine.test(a, b) && !pairGone.test(a, b)) {
          held.add(ChangeEvent.read(pairs, Row.of(pairs, a, b, a + "/" + b), Scn.ZERO, 0, 0));
        }
      }
    }
    long fourth = Scn.ofSnapshot(new Scn(700), 1).value();
    applier.apply(JdbcTestBatches.chunk(PARTITION, fourth, tx(fourth, held.toArray(ChangeEvent[]::new)),
        new SnapshotRange(pairs, List.of(3L, 5L), List.of(8L, 2L), new SnapshotRange.KeyHashShare(4, 0, PARTITION))));
    List<String> pairsLeft = new ArrayList<>();
    int othersKept = 0;
    for (long a = 1; a <= 10; a++) {
      for (long b = 1; b <= 10; b++) {
        boolean deleted = inRange.test(a, b) && pairGone.test(a, b) && pairMine.test(a, b);
        othersKept += inRange.test(a, b) && pairGone.test(a, b) && !pairMine.test(a, b) ? 1 : 0;
        if (!deleted) {
          pairsLeft.add(a + "|" + b);
        }
      }
    }
    assertThat(othersKept).as("the test's keys cover other partitions").isPositive();
    assertThat(rows(t, "SELECT a, b FROM " + t.database() + ".pairs ORDER BY a, b")).containsExactlyElementsOf(pairsLeft);
  }

  private static Transaction chunk(TableSchema ids, long scn, long from, long to, LongPredicate held) {
    List<ChangeEvent> reads = new ArrayList<>();
    for (long id = from; id <= to; id++) {
      if (held.test(id)) {
        reads.add(ChangeEvent.read(ids, Row.of(ids, id, "v" + id), Scn.ZERO, 0, 0));
      }
    }
    return tx(scn, reads.toArray(ChangeEvent[]::new));
  }
}
