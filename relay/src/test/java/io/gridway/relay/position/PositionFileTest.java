package io.gridway.relay.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PositionFileTest {
  @TempDir Path dir;

  private static SourcePosition.Binlog at(long offset) {
    return new SourcePosition.Binlog("mariadb-bin.000003", offset, "0-1-" + offset);
  }

  @Test
  void roundTripsEveryPositionKindAndLeavesNoTemporaryFile() throws IOException {
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    assertThat(file.read()).isNull();
    PositionState state = new PositionState(new StoredPosition(42, at(1234), 1000),
        List.of(new StoredPosition(7, new SourcePosition.Generated(7), 10), new StoredPosition(9, new SourcePosition.Trail(1, 2), 20)));
    file.write(state);
    assertThat(file.read()).isEqualTo(state);
    assertThat(Files.list(dir).map(p -> p.getFileName().toString()).toList()).containsExactly("pos.json");
  }

  @Test
  void aDamagedFileIsAnErrorNamingItNotAFreshStart() throws IOException {
    Path path = dir.resolve("pos.json");
    Files.writeString(path, "{\"last\": {\"scn\": 1");
    assertThatThrownBy(() -> new PositionFile(path).read()).isInstanceOf(IOException.class)
        .hasMessageContaining(path.toString()).hasMessageContaining("fix or delete it");
  }

  @Test
  void resumeFromIsTheOldestCheckpointKeptWithReplayAndTheLastWithout() {
    StoredPosition a = new StoredPosition(10, at(10), 0);
    StoredPosition b = new StoredPosition(20, at(20), 30_000);
    PositionState state = new PositionState(new StoredPosition(40, at(40), 70_000), List.of(a, b));
    assertThat(state.resumeFrom(0)).isEqualTo(state.last());
    assertThat(state.resumeFrom(10_000)).isEqualTo(a); // the recorder keeps no more than the refill needs
    assertThat(new PositionState(state.last(), List.of()).resumeFrom(10_000)).isEqualTo(state.last());
  }

  @Test
  void withEverythingEvictedTheRingKeepsTheReplayWindowPlusOneOlder() throws IOException {
    MutableClock clock = new MutableClock();
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    long[] floor = {0};
    PositionRecorder recorder = new PositionRecorder(file, null, Duration.ofSeconds(16), clock, () -> floor[0]);
    recorder.flush();
    assertThat(file.read()).isNull(); // nothing stored yet
    for (int i = 1; i <= 40; i++) {
      recorder.stored(i, at(i));
      floor[0] = i - 1; // the buffer holds only the newest window
      clock.advance(1000);
      recorder.flush();
    }
    PositionState state = file.read();
    assertThat(state.last().scn()).isEqualTo(40);
    // from the first window (SCN 1) a checkpoint every 2 s (16 s / 8); only those within 16 s of the newest plus one older stay
    assertThat(state.history()).extracting(StoredPosition::scn).containsExactly(23L, 25L, 27L, 29L, 31L, 33L, 35L, 37L, 39L);
    PositionRecorder restarted = new PositionRecorder(file, state, Duration.ofSeconds(16), clock, () -> 40);
    restarted.flush();
    assertThat(file.read()).isEqualTo(state);
    assertThat(state.resumeFrom(16_000).scn()).isEqualTo(23);
  }

  @Test
  void theRingReachesBackToTheBufferFloorHoweverOldItIs() throws IOException {
    MutableClock clock = new MutableClock();
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    long[] floor = {0};
    PositionRecorder recorder = new PositionRecorder(file, null, Duration.ofSeconds(16), clock, () -> floor[0]);
    for (int i = 1; i <= 40; i++) {
      recorder.stored(i, at(i));
      clock.advance(1000);
      recorder.flush();
    }
    assertThat(file.read().resumeFrom(16_000).scn()).isEqualTo(1); // nothing evicted: refill from the first window
    floor[0] = 10;
    recorder.stored(41, at(41));
    recorder.flush();
    assertThat(file.read().resumeFrom(16_000).scn()).isEqualTo(9); // the newest checkpoint at or below the floor
    floor[0] = 38;
    recorder.stored(42, at(42));
    recorder.flush();
    assertThat(file.read().resumeFrom(16_000).scn()).isEqualTo(25); // now the replay window reaches further back
  }

  @Test
  void aLongRingIsThinnedInsideNeverAtItsEnds() throws IOException {
    MutableClock clock = new MutableClock();
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    PositionRecorder recorder = new PositionRecorder(file, null, Duration.ofSeconds(8), clock, () -> 0);
    for (int i = 1; i <= 150; i++) {
      recorder.stored(i, at(i));
      clock.advance(1000);
      recorder.flush();
    }
    List<StoredPosition> history = file.read().history();
    assertThat(history).hasSize(PositionRecorder.MAX_HISTORY);
    assertThat(history.get(0).scn()).isEqualTo(1);
    assertThat(history.get(history.size() - 1).scn()).isEqualTo(150);
    for (int i = 1; i < history.size(); i++) { // 150 s over 63 gaps: evenly about 2.4 s
      assertThat(history.get(i).timeMillis() - history.get(i - 1).timeMillis()).as("gap %d", i).isLessThanOrEqualTo(5_000);
    }
  }

  static final class MutableClock extends Clock {
    private long millis = 1_000_000;

    void advance(long ms) {
      millis += ms;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }
  }
}
