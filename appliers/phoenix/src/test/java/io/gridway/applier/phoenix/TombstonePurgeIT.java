package io.gridway.applier.phoenix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tombstone clean-up on the mini cluster: only tombstones below every named partition's checkpoint go, live rows and
 * newer tombstones stay, micro-partition checkpoints and unsigned SCNs count, and a partition without a checkpoint
 * refuses the purge.
 */
@Timeout(300)
class TombstonePurgeIT {
  private static final TableSchema S = TableSchema.of("src", "purge", "items", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.of("name", ColumnType.VARCHAR)), List.of("id"));

  private static Transaction tx(long scn, ChangeEvent... events) {
    return new Transaction(new Scn(scn), scn * 1000, null, null, List.of(events));
  }

  private static ChangeEvent insert(long scn, long id, String name) {
    return ChangeEvent.insert(S, Row.of(S, id, name), new Scn(scn), scn * 1000, 0);
  }

  private static ChangeEvent delete(long scn, long id) {
    return ChangeEvent.delete(S, Row.of(S, id, "x"), new Scn(scn), scn * 1000, 0);
  }

  @Test
  void purgesOnlyTombstonesBelowEveryPartitionsCheckpoint() throws Exception {
    PhoenixCluster cluster = PhoenixCluster.get();
    PhoenixConnections connections = new PhoenixConnections(cluster.url(), getClass().getClassLoader());
    PhoenixApplier applier = new PhoenixApplier(connections, PhoenixTargetConfig.rows(cluster.url()),
        new SimpleMeterRegistry());
    applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(10, insert(10, 1, "a"), insert(10, 2, "b"), insert(10, 3, "c")),
        tx(20, delete(20, 2)), tx(30, delete(30, 3)))));

    PhoenixCheckpointStore store = new PhoenixCheckpointStore(connections, Clock.systemUTC());
    Instant now = Instant.now();
    long p0 = store.claim("purge-g", 0);
    long p1 = store.claim("purge-g", 1);
    // partition 0 at 40 with a micro-partition at the top of the unsigned range, partition 1's micro-partition at 25
    store.write(List.of(Checkpoint.of("purge-g", 0, new Scn(40), p0, now), new Checkpoint("purge-g", 0, 0, new Scn(-5), p0,
        now)));
    store.write(List.of(Checkpoint.of("purge-g", 1, new Scn(45), p1, now), new Checkpoint("purge-g", 1, 0, new Scn(25), p1,
        now)));

    try (Connection c = cluster.connect()) {
      TombstonePurge purge = new TombstonePurge(c);
      assertThatThrownBy(() -> purge.horizon(List.of("purge-g"), 3)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("'purge-g' partition 2 has no checkpoint");
      assertThat(purge.horizon(List.of("purge-g"), 2)).isEqualTo(25);
      assertThat(purge.purgeAll(List.of("purge-g"), 2, List.of("purge.items")))
          .containsExactly("purge.items: 1 tombstones below SCN 25 removed");
    }
    assertThat(rows(cluster, "SELECT \"id\", \"name\", \"GW_DELETED\" FROM \"purge\".\"items_gw\" ORDER BY \"id\""))
        .containsExactly("1|a|false", "3|null|true");
    // what may still be replayed (after the horizon) is still held off by the tombstone that stayed
    applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(30, delete(30, 3)))));
    assertThat(rows(cluster, "SELECT \"id\", \"name\" FROM \"purge\".\"items\" ORDER BY \"id\"")).containsExactly("1|a");
  }

  private static List<String> rows(PhoenixCluster cluster, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = cluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          values.add(rs.getString(i));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows;
  }
}
