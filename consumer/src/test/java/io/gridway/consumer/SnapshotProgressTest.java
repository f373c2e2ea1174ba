package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.checkpoint.Checkpoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The snapshot cursor a checkpoint carries (docs/bootstrap.md §6): never ahead of the SCN it is stored with. */
class SnapshotProgressTest {
  private static final List<String> TABLES = List.of("db.a", "db.b");

  @Test
  void aCursorIsStoredOnlyWithACheckpointThatCoversItsChunk() {
    SnapshotProgress progress = new SnapshotProgress(null);
    assertThat(progress.settled()).isTrue();
    progress.record(100, "db.a\n[10]", 7);
    progress.record(200, "db.a\n[20]", 3);
    assertThat(progress.settled()).isFalse();
    assertThat(progress.needsWrite(99)).isFalse();
    assertThat(progress.cursorAt(99)).isNull(); // the chunk at 100 is not applied yet
    assertThat(progress.needsWrite(150)).isTrue();
    assertThat(progress.cursorAt(150)).isEqualTo("db.a\n[10]");
    progress.stored("db.a\n[10]");
    assertThat(progress.settled()).isFalse(); // the chunk at 200 is not stored yet
    assertThat(progress.cursorAt(150)).isEqualTo("db.a\n[10]"); // stays: checkpoints only grow
    assertThat(progress.cursorAt(-1L)).isEqualTo("db.a\n[20]"); // unsigned: the largest SCN covers both
    progress.stored("db.a\n[20]");
    assertThat(progress.settled()).isTrue();
    assertThat(progress.needsWrite(300)).isFalse();
  }

  @Test
  void unsettledChunksCountWhatAKillWouldReadAgainUntilTheirCursorIsDurable() {
    SnapshotProgress progress = new SnapshotProgress("db.a\n[5]");
    assertThat(progress.unsettledChunks()).isZero();
    progress.record(100, "db.a\n[10]", 7);
    assertThat(progress.unsettledChunks()).isEqualTo(1); // placed, not applied
    progress.record(200, "db.a\n[20]", 3);
    assertThat(progress.unsettledChunks()).isEqualTo(2);
    assertThat(progress.cursorAt(150)).isEqualTo("db.a\n[10]");
    assertThat(progress.unsettledChunks()).isEqualTo(2); // covered by a write that is not durable yet
    assertThat(progress.cursorAt(250)).isEqualTo("db.a\n[20]");
    progress.stored("db.a\n[10]"); // the older write lands after the newer one covered more: counted as nothing
    assertThat(progress.unsettledChunks()).isEqualTo(2);
    progress.stored("db.a\n[20]");
    assertThat(progress.unsettledChunks()).isZero();
    assertThat(progress.settled()).isTrue();
    progress.record(300, "db.a\n[30]", 1);
    assertThat(progress.cursorAt(300)).isEqualTo("db.a\n[30]");
    progress.stored("db.a\n[30]");
    assertThat(progress.unsettledChunks()).isZero();
    progress.restart(null); // a re-seed: its first cursor is not durable until written
    assertThat(progress.unsettledChunks()).isEqualTo(1);
  }

  @Test
  void anOnDemandLoadIsReportedLoadedOnceTheFinishedCursorIsDurableAndOnlyOnce() {
    java.util.concurrent.atomic.AtomicInteger loaded = new java.util.concurrent.atomic.AtomicInteger();
    // the request's taker stored a cursor of no table: the load starts at the first chunk of whatever list it has
    assertThat(SnapshotCursor.decode("start-over", TABLES)).isEqualTo(SnapshotCursor.FIRST);
    SnapshotProgress progress = new SnapshotProgress("start-over", loaded::incrementAndGet);
    progress.record(100, "db.b\n[5]", 0);
    progress.stored(progress.cursorAt(100));
    assertThat(loaded).hasValue(0);
    progress.record(200, Checkpoint.SNAPSHOT_DONE, 0);
    assertThat(loaded).hasValue(0); // recorded, not durable yet
    progress.stored(progress.cursorAt(200));
    assertThat(loaded).hasValue(1);
    progress.stored(progress.cursorAt(300)); // every later checkpoint carries "done" too
    assertThat(loaded).hasValue(1);
  }

  @Test
  void theCursorTextNamesTheTableAndResumesThere() {
    SnapshotCursor first = SnapshotCursor.FIRST;
    assertThat(first.encode(TABLES)).isEqualTo("db.a\n");
    SnapshotCursor mid = first.next("[1,\"x\\ny\"]", false);
    assertThat(SnapshotCursor.decode(mid.encode(TABLES), TABLES)).isEqualTo(mid); // a newline inside the key survives
    SnapshotCursor second = mid.next(null, true);
    assertThat(second).isEqualTo(new SnapshotCursor(1, null));
    SnapshotCursor done = second.next(null, true);
    assertThat(done.isDone(TABLES)).isTrue();
    assertThat(done.encode(TABLES)).isEqualTo(Checkpoint.SNAPSHOT_DONE);
    assertThat(SnapshotCursor.decode(Checkpoint.SNAPSHOT_DONE, TABLES).isDone(TABLES)).isTrue();
    // a table no longer configured: start over rather than skip one
    assertThat(SnapshotCursor.decode("db.gone\n[5]", TABLES)).isEqualTo(SnapshotCursor.FIRST);
    assertThat(SnapshotCursor.decode(null, TABLES)).isEqualTo(SnapshotCursor.FIRST);
  }

  @Test
  void chunksAndRowsCountOnlyWhatACheckpointCovers() {
    SnapshotProgress progress = new SnapshotProgress("db.a\n[5]");
    assertThat(progress.covered()).isEqualTo(new SnapshotProgress.Covered("db.a\n[5]", 0, 0)); // resumed: counts from 0
    progress.record(100, "db.a\n[10]", 7);
    progress.record(150, "db.b\n", 0); // no row of this partition: the cursor moves, the chunk counts
    progress.record(200, "db.b\n[20]", 3);
    assertThat(progress.covered().chunks()).isZero(); // recorded, not in a checkpoint yet
    progress.cursorAt(160);
    assertThat(progress.covered()).isEqualTo(new SnapshotProgress.Covered("db.b\n", 2, 7));
    progress.cursorAt(200);
    assertThat(progress.covered()).isEqualTo(new SnapshotProgress.Covered("db.b\n[20]", 3, 10));
    progress.restart("db.a\n"); // a re-seed loads again from the first chunk
    assertThat(progress.covered()).isEqualTo(new SnapshotProgress.Covered("db.a\n", 0, 0));
  }

  @Test
  void eachTableTalliesWhatCheckpointsCoverWithAnEtaFromItsRate() {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000_000);
    java.time.Clock clock = new java.time.Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return java.time.ZoneOffset.UTC;
      }

      @Override
      public java.time.Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public java.time.Instant instant() {
        return java.time.Instant.ofEpochMilli(now.get());
      }
    };
    SnapshotProgress progress = new SnapshotProgress(null, null, clock);
    progress.record(100, "db.a\n[50]", 20, new SnapshotProgress.ChunkInfo("db.a", 50, 200, false));
    progress.record(200, "db.a\n[100]", 30, new SnapshotProgress.ChunkInfo("db.a", 50, 200, false));
    assertThat(progress.tables()).isEmpty(); // recorded, not covered by a checkpoint
    now.addAndGet(10_000); // 100 of ~200 rows in 10 s: 10 s to go
    progress.cursorAt(200);
    assertThat(progress.tables()).containsExactly(new SnapshotProgress.TableTally("db.a", 50, 100, 200, 2, false, 10));
    progress.record(300, "db.b\n", 5, new SnapshotProgress.ChunkInfo("db.a", 20, 200, true));
    progress.record(400, "db.b\n[9]", 9, new SnapshotProgress.ChunkInfo("db.b", 9, -1, false));
    progress.cursorAt(400);
    assertThat(progress.tables()).containsExactly(new SnapshotProgress.TableTally("db.a", 55, 120, 200, 3, true, 0),
        new SnapshotProgress.TableTally("db.b", 9, 9, -1, 1, false, -1)); // no estimate: no ETA
  }

  @Test
  void aCancelledLoadStoresTheFinishedCursorFromThenOnAndSaysSoOnceDurable() {
    java.util.concurrent.atomic.AtomicInteger loaded = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger dropped = new java.util.concurrent.atomic.AtomicInteger();
    SnapshotProgress progress = new SnapshotProgress("start-over", loaded::incrementAndGet);
    progress.record(100, "db.a\n[5]", 3);
    progress.cancel(dropped::incrementAndGet);
    progress.record(150, "db.a\n[9]", 3); // a chunk answered after the cancel: ignored
    assertThat(progress.needsWrite(50)).isTrue(); // even at an SCN already written
    assertThat(progress.cursorAt(50)).isEqualTo(Checkpoint.SNAPSHOT_DONE);
    assertThat(progress.cursorAt(200)).isEqualTo(Checkpoint.SNAPSHOT_DONE);
    assertThat(dropped).hasValue(0);
    progress.stored(Checkpoint.SNAPSHOT_DONE);
    progress.stored(Checkpoint.SNAPSHOT_DONE);
    assertThat(dropped).hasValue(1);
    assertThat(loaded).hasValue(0); // cancelled, not loaded
    assertThat(progress.isCancelled()).isTrue();
    assertThat(progress.settled()).isTrue();
  }
}
