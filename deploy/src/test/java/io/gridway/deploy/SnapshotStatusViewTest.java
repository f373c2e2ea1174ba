package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code gridway snapshot status} prints for a load: per partition, then a progress line per table. */
class SnapshotStatusViewTest {
  private static final long NOW = 1_800_000_000_000L;

  @Test
  void aPausedLoadShowsEachTableWithItsBarRowsAgainstTheEstimateChunksAndEta() {
    SnapshotRequests.Request request = new SnapshotRequests.Request(List.of("shop.orders", "shop.audit"), "ann (cli)",
        NOW - 60_000, true, true, false);
    GroupProgress.Snapshot snapshot = new GroupProgress.Snapshot("shop.orders", 1, 2, 5, 2_500, true, List.of(
        new GroupProgress.TableLoad("shop.orders", 2_500, 2_500, 10_000, 5, false, 75),
        new GroupProgress.TableLoad("shop.audit", 0, 0, -1, 0, false, -1)));
    GroupProgress.Report report = new GroupProgress.Report("c1", 1, 1, 0, NOW - 1_000, 10, snapshot);
    List<String> lines = SnapshotStatusView.lines("orders", Map.of(0, new GroupSnapshot.PartitionLoad(0, request, report)),
        NOW);
    assertThat(lines).containsExactly(
        "group orders partition 0: loading shop.orders, shop.audit (asked by ann (cli) at 2027-01-15T07:59:00Z) — paused",
        "  shop.orders  [######------------------]  25%  2,500 / ~10,000 rows  5 chunks  ETA 1m15s",
        "  shop.audit   [------------------------]    -  waiting");
  }

  @Test
  void aTablePastItsEstimateStaysBelowAHundredUntilItsLastChunkAndAPartitionsShareIsNamed() {
    assertThat(SnapshotStatusView.table(new GroupProgress.TableLoad("a.b", 600, 1_200, 1_000, 3, false, -1)))
        .isEqualTo("[#######################-]  99%  1,200 / ~1,000 rows (600 of this partition)  3 chunks  ETA ?");
    assertThat(SnapshotStatusView.table(new GroupProgress.TableLoad("a.b", 1_300, 1_300, 1_000, 4, true, 0)))
        .startsWith("[########################] 100%  1,300 / ~1,000 rows  4 chunks  done");
  }

  @Test
  void nothingToShowSaysSo() {
    assertThat(SnapshotStatusView.lines("g", Map.of(), NOW)).containsExactly("group g: no snapshot waiting or loading");
    SnapshotRequests.Request cancelled = new SnapshotRequests.Request(List.of(), "x", NOW, true, false, true);
    assertThat(SnapshotStatusView.lines("g", Map.of(1, new GroupSnapshot.PartitionLoad(1, cancelled, null)), NOW))
        .containsExactly("group g partition 1: cancelling the group's tables (asked by x at 2027-01-15T08:00:00Z); no "
            + "progress reported yet");
  }
}
