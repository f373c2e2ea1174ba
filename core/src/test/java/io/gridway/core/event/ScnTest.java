package io.gridway.core.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScnTest {

  @Test
  void snapshotWindowsSitAfterTheirHighWatermarkAndBeforeAnyLaterTransaction() {
    Scn high = Scn.ofBinlog(3, 1_000);
    Scn first = Scn.ofSnapshot(high, 1);
    Scn last = Scn.ofSnapshot(high, Scn.MAX_SNAPSHOT_SUBSEQUENCE);
    // the smallest binlog transaction (GTID event 42 bytes + XID event 31 bytes) ends 73 bytes after the previous one
    Scn nextTransaction = Scn.ofBinlog(3, 1_000 + 73);
    assertThat(first.isAfter(high)).isTrue();
    assertThat(last.isAfter(first)).isTrue();
    assertThat(nextTransaction.isAfter(last)).isTrue();
    assertThat(first.fileIndex()).isEqualTo(3);
  }

  @Test
  void snapshotSubSequenceOutOfRangeIsRefusedWithTheRange() {
    Scn high = Scn.ofBinlog(1, 4);
    assertThatThrownBy(() -> Scn.ofSnapshot(high, 0)).hasMessageContaining("1..63");
    assertThatThrownBy(() -> Scn.ofSnapshot(high, 64)).hasMessageContaining("1..63");
    assertThatThrownBy(() -> Scn.ofSnapshot(Scn.ofBinlog(1, 0xFFFF_FFFFL), 1)).hasMessageContaining("no room");
  }

  @Test
  void readEventsCarryOnlyAnAfterImage() {
    assertThat(Operation.READ.hasAfter()).isTrue();
    assertThat(Operation.READ.hasBefore()).isFalse();
    assertThat(Operation.ofCode(5)).isEqualTo(Operation.READ);
    assertThat(Operation.ofCode(6)).isNull();
  }
}
