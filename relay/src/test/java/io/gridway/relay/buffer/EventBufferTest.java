package io.gridway.relay.buffer;

import static io.gridway.relay.buffer.RawFrames.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.wire.FrameType;
import io.gridway.relay.buffer.BufferCursor.Status;
import io.gridway.relay.buffer.RawFrames.Ev;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventBufferTest {
  private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
  private static final SchemaFrames SCHEMAS = RawFrames::schemaFrame;
  private static final int EVENT = FrameType.EVENT.code();
  private static final int EOW = FrameType.END_OF_WINDOW.code();
  private static final int SCHEMA = FrameType.SCHEMA.code();

  private final EventBuffer buffer = new EventBuffer(64 * 1024, 16 * 1024, 1024, 0);

  private List<long[]> readAll(BufferCursor cursor) {
    ByteBuf frames = cursor.read(ALLOC, Integer.MAX_VALUE);
    try {
      return frames == null ? List.of() : RawFrames.walk(frames);
    } finally {
      if (frames != null) {
        frames.release();
      }
    }
  }

  @Test
  void readerGetsWholeWindowsInOrderWithSchemaBeforeFirstUse() {
    buffer.append(10, window(10, 1, 7, 2, 50));
    buffer.append(20, window(20, 2, 7, 1, 50));
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    assertThat(cursor.seek(0)).isTrue();

    List<long[]> frames = readAll(cursor);

    assertThat(frames).extracting(f -> f[0]).containsExactly((long) SCHEMA, (long) EVENT, (long) EVENT, (long) EOW, (long) EVENT, (long) EOW);
    assertThat(frames.get(0)[1]).isEqualTo(7);
    assertThat(cursor.windows()).isEqualTo(2);
    assertThat(cursor.events()).isEqualTo(3);
    assertThat(cursor.deliveredScn()).isEqualTo(20);
    assertThat(cursor.read(ALLOC, 1 << 20)).isNull();
    assertThat(cursor.status()).isEqualTo(Status.CAUGHT_UP);
    assertThat(cursor.heartbeatScn()).isEqualTo(20);
  }

  @Test
  void newestScnPerPartitionFollowsEveryPartitionOfAWindowAndOutlivesEviction() {
    assertThat(buffer.newestScn(0)).isEqualTo(-1);
    buffer.append(1, window(1, List.of(new Ev(1, 5, 10), new Ev(2, 5, 10), new Ev(1, 5, 10))));
    buffer.append(3, window(3, List.of(new Ev(300, 5, 10), new Ev(1, 5, 10))));
    assertThat(buffer.newestScn(1)).isEqualTo(3);
    assertThat(buffer.newestScn(2)).isEqualTo(1);
    assertThat(buffer.newestScn(300)).isEqualTo(3);
    assertThat(buffer.newestScn(44)).isEqualTo(-1); // partitions 300 and 44 share a bit of the index, not this
    assertThat(buffer.newestScn(65_535)).isEqualTo(-1);
    for (long scn = 10; scn < 200; scn++) {
      buffer.append(scn, window(scn, 1, 5, 1, 2000)); // evicts the first windows
    }
    assertThat(buffer.windowsEvicted()).isPositive();
    assertThat(buffer.newestScn(2)).isEqualTo(1);
    assertThat(buffer.newestScn(1)).isEqualTo(199);
  }

  @Test
  void aFreshStartsFloorEvictsOlderReadersServesItAndSinceZeroStartsThere() {
    EventBuffer fresh = EventBuffer.startingAtFetcher(64 * 1024, 16 * 1024, 1024);
    assertThat(fresh.floorPending()).isTrue();
    assertThat(fresh.startAfter(500)).isTrue();
    assertThat(fresh.startAfter(700)).as("set once").isFalse();
    assertThat(fresh.floorPending()).isFalse();
    assertThat(fresh.processedScn()).isEqualTo(500);
    fresh.append(600, window(600, 0, 1, 1, 10));

    BufferCursor older = fresh.cursor(PartitionFilter.all(), SCHEMAS);
    assertThat(older.seek(499)).as("a reader behind the start never saw what lies between").isFalse();
    assertThat(older.status()).isEqualTo(Status.EVICTED);
    BufferCursor atFloor = fresh.cursor(PartitionFilter.all(), SCHEMAS);
    assertThat(atFloor.seek(500)).isTrue();
    assertThat(readAll(atFloor)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(600L);
    BufferCursor earliest = fresh.cursor(PartitionFilter.all(), SCHEMAS);
    assertThat(earliest.seek(0)).as("since=0: everything since this stream's start").isTrue();
    assertThat(readAll(earliest)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(600L);
  }

  @Test
  void aResumedBuffersFloorIsFixedAndSinceZeroIsEvicted() {
    EventBuffer resumed = new EventBuffer(64 * 1024, 16 * 1024, 1024, 500);
    assertThat(resumed.floorPending()).isFalse();
    assertThat(resumed.startAfter(700)).isFalse();
    assertThat(resumed.processedScn()).isEqualTo(500);
    resumed.append(600, window(600, 0, 1, 1, 10));
    assertThat(resumed.cursor(PartitionFilter.all(), SCHEMAS).seek(0))
        .as("windows before a stored position existed and are gone").isFalse();
    assertThat(resumed.cursor(PartitionFilter.all(), SCHEMAS).seek(500)).isTrue();
  }

  @Test
  void seekFindsFirstWindowAfterSince() {
    for (long scn = 100; scn <= 1000; scn += 100) {
      buffer.append(scn, window(scn, 0, 1, 1, 10));
    }
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(450);
    assertThat(readAll(cursor)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(500L, 600L, 700L, 800L, 900L, 1000L);
    cursor.seek(1000);
    assertThat(readAll(cursor)).isEmpty();
  }

  @Test
  void maxBytesReturnsWholeWindowsAndAlwaysAtLeastOne() {
    buffer.append(1, window(1, 0, 1, 3, 1000));
    buffer.append(2, window(2, 0, 1, 3, 1000));
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(0);
    ByteBuf first = cursor.read(ALLOC, 10);
    assertThat(RawFrames.walk(first)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(1L);
    first.release();
    ByteBuf second = cursor.read(ALLOC, 10);
    assertThat(RawFrames.walk(second)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(2L);
    second.release();
  }

  @Test
  void evictsOldestChunkWhenFullAndTellsReadersTheOldestScn() {
    BufferCursor slow = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    slow.seek(0);
    long scn = 0;
    while (buffer.windowsEvicted() == 0) {
      scn++;
      buffer.append(scn, window(scn, 0, 1, 1, 1000));
    }
    assertThat(buffer.allocatedBytes()).isLessThanOrEqualTo(buffer.capacityBytes());
    assertThat(slow.read(ALLOC, 1 << 20)).isNull();
    assertThat(slow.status()).isEqualTo(Status.EVICTED);
    assertThat(slow.oldestScn()).isEqualTo(buffer.oldestScn()).isGreaterThan(1);

    BufferCursor late = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    assertThat(late.seek(0)).isFalse();
    assertThat(late.status()).isEqualTo(Status.EVICTED);
    assertThat(late.seek(buffer.oldestScn() - 1)).isTrue();
    assertThat(readAll(late)).filteredOn(f -> f[0] == EOW).first().satisfies(f -> assertThat(f[1]).isEqualTo(buffer.oldestScn()));
  }

  @Test
  void wrapsManyTimesKeepingUsedBytesWithinCapacity() {
    for (long scn = 1; scn <= 5000; scn++) {
      buffer.append(scn, window(scn, (int) scn % 3, 1, 1 + (int) (scn % 4), 200));
      assertThat(buffer.usedBytes()).isLessThanOrEqualTo(buffer.capacityBytes());
    }
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(buffer.oldestScn() - 1);
    List<long[]> frames = readAll(cursor);
    assertThat(frames).filteredOn(f -> f[0] == EOW).hasSize((int) buffer.windowsHeld());
    assertThat(buffer.newestScn()).isEqualTo(5000);
  }

  @Test
  void indexFullEvictsOldestWindows() {
    EventBuffer small = new EventBuffer(1 << 20, 64 * 1024, 16, 0);
    for (long scn = 1; scn <= 40; scn++) {
      small.append(scn, window(scn, 0, 1, 1, 10));
    }
    assertThat(small.windowsHeld()).isEqualTo(16);
    assertThat(small.oldestScn()).isEqualTo(25);
    assertThat(small.evictedThroughScn()).isEqualTo(24);
  }

  @Test
  void partitionFilterOmitsOtherPartitionsAndEmptyWindows() {
    buffer.append(1, window(1, List.of(new Ev(1, 5, 10), new Ev(2, 5, 10), new Ev(1, 5, 10))));
    buffer.append(2, window(2, 2, 5, 2, 10));
    buffer.append(3, window(3, List.of(new Ev(65, 5, 10), new Ev(1, 5, 10))));
    BufferCursor cursor = buffer.cursor(PartitionFilter.of(Set.of(1)), SCHEMAS);
    cursor.seek(0);

    List<long[]> frames = readAll(cursor);

    assertThat(frames).extracting(f -> f[0] + ":" + f[1] + ":" + f[2]).containsExactly(
        SCHEMA + ":5:-1", EVENT + ":1:1", EVENT + ":1:1", EOW + ":1:-1", EVENT + ":3:1", EOW + ":3:-1");
    assertThat(cursor.events()).isEqualTo(3);
    assertThat(cursor.heartbeatScn()).isEqualTo(3);
  }

  @Test
  void partitionsAbove63AreFilteredExactly() {
    buffer.append(1, window(1, 65, 5, 1, 10)); // same summary bit as partition 1
    buffer.append(2, window(2, 1, 5, 1, 10));
    BufferCursor cursor = buffer.cursor(PartitionFilter.of(Set.of(1)), SCHEMAS);
    cursor.seek(0);
    assertThat(readAll(cursor)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(2L);
  }

  @Test
  void skippedTrailingWindowsStillAdvanceTheHeartbeat() {
    buffer.append(1, window(1, 1, 5, 1, 10));
    buffer.append(2, window(2, 2, 5, 1, 10));
    BufferCursor cursor = buffer.cursor(PartitionFilter.of(Set.of(1)), SCHEMAS);
    cursor.seek(0);
    readAll(cursor);
    assertThat(cursor.deliveredScn()).isEqualTo(1);
    assertThat(cursor.read(ALLOC, 1000)).isNull();
    assertThat(cursor.heartbeatScn()).isEqualTo(2);
  }

  @Test
  void multiSchemaWindowGetsEachSchemaOnceBeforeIt() {
    buffer.append(1, window(1, List.of(new Ev(0, 5, 10), new Ev(0, 6, 10), new Ev(0, 5, 10))));
    buffer.append(2, window(2, List.of(new Ev(0, 6, 10), new Ev(0, 7, 10))));
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(0);
    assertThat(readAll(cursor)).extracting(f -> f[0] + ":" + f[1]).containsExactly(
        SCHEMA + ":5", SCHEMA + ":6", EVENT + ":1", EVENT + ":1", EVENT + ":1", EOW + ":1",
        SCHEMA + ":7", EVENT + ":2", EVENT + ":2", EOW + ":2");
  }

  @Test
  void rejectsNonIncreasingScnsOversizedAndMalformedWindows() {
    buffer.append(5, window(5, 0, 1, 1, 10));
    assertThatThrownBy(() -> buffer.append(5, window(5, 0, 1, 1, 10))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> buffer.append(6, window(6, 0, 1, 1, 20_000))).isInstanceOf(WindowTooLargeException.class);
    assertThatThrownBy(() -> buffer.append(7, window(8, 0, 1, 1, 10))).hasMessageContaining("another SCN");
    assertThatThrownBy(() -> buffer.append(9, out -> {})).hasMessageContaining("no END_OF_WINDOW");
    assertThat(buffer.windowsPublished()).isEqualTo(1);
    buffer.append(10, window(10, 0, 1, 1, 10));
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(5);
    assertThat(readAll(cursor)).filteredOn(f -> f[0] == EOW).extracting(f -> f[1]).containsExactly(10L);
  }

  @Test
  void waitersFireOnceOnPublishOrAtOnceWhenAlreadyPublished() {
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(0);
    assertThat(cursor.read(ALLOC, 100)).isNull();
    AtomicInteger fired = new AtomicInteger();
    cursor.awaitMore(fired::incrementAndGet);
    Wakeup cancelled = cursor.awaitMore(() -> fired.addAndGet(100));
    cancelled.cancel();
    assertThat(buffer.waitingReaders()).isEqualTo(1);
    buffer.append(1, window(1, 0, 1, 1, 10));
    buffer.append(2, window(2, 0, 1, 1, 10));
    assertThat(fired).hasValue(1);
    cursor.awaitMore(fired::incrementAndGet);
    assertThat(fired).hasValue(2);
    assertThat(buffer.waitingReaders()).isZero();
  }

  @Test
  void processedScnWithoutWindowsWakesAndAdvancesHeartbeat() {
    BufferCursor cursor = buffer.cursor(PartitionFilter.all(), SCHEMAS);
    cursor.seek(0);
    assertThat(cursor.read(ALLOC, 100)).isNull();
    AtomicInteger fired = new AtomicInteger();
    cursor.awaitMore(fired::incrementAndGet);
    buffer.advanceProcessed(42);
    assertThat(fired).hasValue(1);
    assertThat(cursor.read(ALLOC, 100)).isNull();
    assertThat(cursor.heartbeatScn()).isEqualTo(42);
  }
}
