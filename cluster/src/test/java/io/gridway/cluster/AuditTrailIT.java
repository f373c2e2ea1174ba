package io.gridway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.testkit.ZooKeeperExtension;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The grid's audit trail in ZooKeeper: appended in order, read newest first, bounded, shared by every writer. */
class AuditTrailIT {
  private static final AtomicInteger CLUSTERS = new AtomicInteger();
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private final String cluster = "gw" + ProcessHandle.current().pid() + "au" + CLUSTERS.incrementAndGet();

  @Test
  void entriesAreReadNewestFirstAcrossWritersAndTheOldestGoPastTheBound() {
    ZkConfig zk = ZkConfig.external(ZK.server().connectString());
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.init();
    }
    try (AuditTrail cli = AuditTrail.open(zk, cluster, 5); AuditTrail service = AuditTrail.open(zk, cluster, 5)) {
      assertThat(service.recent(10)).isEmpty();
      cli.append(new AuditTrail.Entry("2026-11-26T08:00:00Z", "alice (cli)", "partition.reset", "group orders partition 3",
          "{\"checkpointScn\":\"1003\"}", "{\"resetTo\":\"900\"}", "cli"));
      AuditTrail.Entry deleted = new AuditTrail.Entry("2026-11-26T08:00:01Z", "bob", "group.delete", "group g", "{\"partitions\":2}",
          null, "admin admin1");
      service.append(deleted);
      List<AuditTrail.Entry> two = cli.recent(10);
      assertThat(two).extracting(AuditTrail.Entry::action).containsExactly("group.delete", "partition.reset");
      assertThat(two.get(0)).isEqualTo(deleted);
      assertThat(two.get(1).before()).isEqualTo("{\"checkpointScn\":\"1003\"}");
      assertThat(cli.recent(1)).containsExactly(deleted);

      for (int i = 0; i < 6; i++) {
        service.append(new AuditTrail.Entry("2026-11-26T08:01:0" + i + "Z", "bob", "partition.pause", "p" + i, null, null, "admin admin1"));
      }
      // 8 appended, 5 kept: the newest
      assertThat(cli.recent(100)).extracting(AuditTrail.Entry::target).containsExactly("p5", "p4", "p3", "p2", "p1");
    }
  }
}
