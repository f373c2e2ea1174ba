package io.gridway.relay.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Scn;
import org.junit.jupiter.api.Test;

/** The snapshot window's SCN for an asker at {@code since} (docs/bootstrap.md §2). */
class SnapshotScnTest {
  private static final Scn HIGH = Scn.ofBinlog(2, 10_000);

  @Test
  void anAskerBelowTheHighWatermarkGetsTheFirstSubSequence() {
    assertThat(SnapshotService.snapshotScn(HIGH, 0)).isEqualTo(Scn.ofSnapshot(HIGH, 1));
    assertThat(SnapshotService.snapshotScn(HIGH, HIGH.value())).isEqualTo(Scn.ofSnapshot(HIGH, 1));
  }

  @Test
  void anAskerAtASnapshotWindowOfTheSameHighWatermarkContinuesItsSubSequence() {
    assertThat(SnapshotService.snapshotScn(HIGH, Scn.ofSnapshot(HIGH, 1).value())).isEqualTo(Scn.ofSnapshot(HIGH, 2));
    assertThat(SnapshotService.snapshotScn(HIGH, Scn.ofSnapshot(HIGH, 62).value())).isEqualTo(Scn.ofSnapshot(HIGH, 63));
  }

  @Test
  void aSixtyFourthWindowAtOneHighWatermarkWaitsForTheLogToMove() {
    assertThatThrownBy(() -> SnapshotService.snapshotScn(HIGH, Scn.ofSnapshot(HIGH, 63).value()))
        .isInstanceOf(SnapshotService.SubSequenceExhausted.class).hasMessageContaining("waiting for the source's log");
  }
}
