package io.gridway.relay.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.relay.buffer.RawFrames.Ev;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link EventBuffer#firstCommittedAtOrAfter}: a source commit time → the SCN to ask {@code since=} with. */
class CommitTimeLookupTest {
  private final EventBuffer buffer = new EventBuffer(64 * 1024, 16 * 1024, 1024, 0);

  private void append(long scn, long micros) {
    buffer.append(scn, RawFrames.window(scn, micros, List.of(new Ev(0, 1, 10))));
  }

  @Test
  void findsTheFirstWindowAtOrAfterTheTimeAndTheOneBeforeIt() {
    // windows 10, 20, … 200 committed at 1000, 1000, 2000, 2000, … (two per second, equal times side by side)
    for (int i = 1; i <= 20; i++) {
      append(i * 10L, ((i + 1) / 2) * 1000L);
    }
    assertThat(buffer.firstCommittedAtOrAfter(5000)).isEqualTo(new CommitTimePosition.Found(80, 90, 5000));
    assertThat(buffer.firstCommittedAtOrAfter(4500)).isEqualTo(new CommitTimePosition.Found(80, 90, 5000));
    assertThat(buffer.firstCommittedAtOrAfter(1001)).isEqualTo(new CommitTimePosition.Found(20, 30, 2000));
    assertThat(buffer.firstCommittedAtOrAfter(10_000)).isEqualTo(new CommitTimePosition.Found(180, 190, 10_000));
  }

  @Test
  void aTimeAtOrBeforeTheOldestWindowCannotBeToldAndOneAfterTheNewestIsNotYet() {
    assertThat(buffer.firstCommittedAtOrAfter(5)).isEqualTo(new CommitTimePosition.NotYet(-1, 0));
    append(10, 1000);
    append(20, 2000);
    // windows before SCN 10 (evicted, or never read) may be committed at 1000 too
    assertThat(buffer.firstCommittedAtOrAfter(1000)).isEqualTo(new CommitTimePosition.BeforeBuffer(10, 1000));
    assertThat(buffer.firstCommittedAtOrAfter(999)).isEqualTo(new CommitTimePosition.BeforeBuffer(10, 1000));
    assertThat(buffer.firstCommittedAtOrAfter(2001)).isEqualTo(new CommitTimePosition.NotYet(20, 2000));
    assertThat(buffer.firstCommittedAtOrAfter(2000)).isEqualTo(new CommitTimePosition.Found(10, 20, 2000));
  }

  @Test
  void afterEvictionTheOldestHeldWindowBoundsWhatCanBeTold() {
    for (long scn = 1; scn <= 400; scn++) {
      buffer.append(scn, RawFrames.window(scn, scn * 1000, List.of(new Ev(0, 1, 2000)))); // evicts the first ones
    }
    long oldest = buffer.oldestScn();
    assertThat(oldest).isGreaterThan(1);
    assertThat(buffer.firstCommittedAtOrAfter(2000)).isEqualTo(new CommitTimePosition.BeforeBuffer(oldest, oldest * 1000));
    assertThat(buffer.firstCommittedAtOrAfter(399_500)).isEqualTo(new CommitTimePosition.Found(399, 400, 400_000));
  }
}
