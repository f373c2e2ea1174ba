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
}
