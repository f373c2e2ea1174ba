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
  void sequenceScnsFollowTheSequenceAndLeaveRoomForEverySnapshotWindowBetweenTwoTransactions() {
    Scn one = Scn.ofSequence(41);
    Scn next = Scn.ofSequence(42);
    assertThat(one.value()).isEqualTo(41L << 6);
    assertThat(one.sequence()).isEqualTo(41);
    assertThat(next.isAfter(one)).isTrue();
    Scn lastWindow = Scn.ofSnapshot(one, Scn.MAX_SNAPSHOT_SUBSEQUENCE);
    assertThat(lastWindow.isAfter(Scn.ofSnapshot(one, 1))).isTrue();
    assertThat(next.isAfter(lastWindow)).isTrue();
    assertThat(lastWindow.sequence()).isEqualTo(41); // a window belongs to the transaction it follows
    assertThat(Scn.ofSequence(0)).isEqualTo(Scn.ZERO);
  }

  @Test
  void sequenceScnsStayInOrderAcrossThe32BitBoundaryAndUpToTheLargestSequence() {
    long crossing = (1L << 26) - 1; // the last sequence whose SCN fits 32 bits
    Scn below = Scn.ofSequence(crossing);
    assertThat(Scn.ofSnapshot(below, Scn.MAX_SNAPSHOT_SUBSEQUENCE).isAfter(below)).isTrue();
    assertThat(Scn.ofSequence(crossing + 1).isAfter(Scn.ofSnapshot(below, Scn.MAX_SNAPSHOT_SUBSEQUENCE))).isTrue();
    Scn largest = Scn.ofSequence(Scn.MAX_SEQUENCE);
    assertThat(largest.isAfter(Scn.ofSequence(Scn.MAX_SEQUENCE - 1))).isTrue(); // compared unsigned
    assertThat(largest.sequence()).isEqualTo(Scn.MAX_SEQUENCE);
    assertThat(Scn.parse(largest.toString())).isEqualTo(largest);
  }

  @Test
  void sequenceOutOfRangeIsRefusedNamingTheRange() {
    assertThatThrownBy(() -> Scn.ofSequence(-1)).hasMessageContaining("out of range 0.." + Scn.MAX_SEQUENCE);
    assertThatThrownBy(() -> Scn.ofSequence(Scn.MAX_SEQUENCE + 1)).hasMessageContaining("snapshot windows");
  }

  @Test
  void aGtidOnlyBinlogPositionIsTellable() {
    SourcePosition.Binlog byGtid = SourcePosition.Binlog.ofGtidSet("0-1-42");
    assertThat(byGtid.gtidOnly()).isTrue();
    assertThat(byGtid).hasToString("gtid=0-1-42");
    assertThat(new SourcePosition.Binlog("mariadb-bin.000003", 400, "0-1-42").gtidOnly()).isFalse();
    assertThat(new SourcePosition.Binlog("", 0, "0-1-42").gtidOnly()).isFalse();
    assertThatThrownBy(() -> SourcePosition.Binlog.ofGtidSet("")).hasMessageContaining("needs a GTID set");
  }

  @Test
  void readEventsCarryOnlyAnAfterImage() {
    assertThat(Operation.READ.hasAfter()).isTrue();
    assertThat(Operation.READ.hasBefore()).isFalse();
    assertThat(Operation.ofCode(5)).isEqualTo(Operation.READ);
    assertThat(Operation.ofCode(6)).isNull();
  }
}
