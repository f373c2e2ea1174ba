package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.event.Scn;
import io.gridway.testkit.ZooKeeperExtension;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The snapshot cursor in ZooKeeper: kept with the SCN in the partition's one znode, read back by another store (a
 * restarted consumer), cleared by a write without it, and fenced with the SCN.
 */
class ZkCheckpointCursorIT {
  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private static final Instant T = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  private final String cluster = "gw" + ProcessHandle.current().pid() + "cc" + CLUSTERS.incrementAndGet();

  @Test
  void theCursorIsKeptWithTheScnAndFencedWithIt() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster);
        ZkCheckpointStore store = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC());
        ZkCheckpointStore restarted = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC())) {
      admin.init();
      assertThat(store.keepsSnapshotCursor()).isTrue();
      long g1 = store.claim("orders", 3);
      // a cursor as the consumer writes it: table, then the last key as JSON (text with a newline, quotes, non-ASCII)
      String cursor = "shop.orders\n[42,\"Zoë \\\"x\\\"\"]";
      List<Checkpoint> loading = List.of(new Checkpoint("orders", 3, Checkpoint.WHOLE, new Scn(-2), g1, T, cursor),
          new Checkpoint("orders", 3, 0, new Scn(90), g1, T));
      store.write(loading);
      assertThat(restarted.read("orders", 3)).containsExactlyElementsOf(loading);

      // the next chunk: cursor and SCN move together
      List<Checkpoint> next = List.of(new Checkpoint("orders", 3, Checkpoint.WHOLE, new Scn(-1), g1, T, "shop.orders\n[80]"));
      store.write(next);
      assertThat(restarted.read("orders", 3)).containsExactlyElementsOf(next);

      // a newer owner: the old one's cursor does not land, the new one's does
      long g2 = restarted.claim("orders", 3);
      assertThatThrownBy(() -> store.write(List.of(new Checkpoint("orders", 3, Checkpoint.WHOLE, new Scn(-1), g1, T,
          "shop.orders\n[99]")))).isInstanceOf(CheckpointFencedException.class);
      assertThat(restarted.read("orders", 3)).singleElement().extracting(Checkpoint::snapshot).isEqualTo("shop.orders\n[80]");
      restarted.write(List.of(new Checkpoint("orders", 3, Checkpoint.WHOLE, new Scn(-1), g2, T, Checkpoint.SNAPSHOT_DONE)));
      assertThat(store.read("orders", 3)).singleElement().extracting(Checkpoint::snapshot).isEqualTo(Checkpoint.SNAPSHOT_DONE);

      // a write without a cursor clears it
      restarted.write(List.of(Checkpoint.of("orders", 3, new Scn(120), g2, T)));
      assertThat(store.read("orders", 3)).singleElement().satisfies(c -> {
        assertThat(c.snapshot()).isNull();
        assertThat(c.scn()).isEqualTo(new Scn(120));
      });
      assertThat(store.read("orders", 4)).isEmpty();
    }
  }
}
