package io.gridway.consumer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointFencedException;
import io.gridway.core.event.Scn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointStoreTest {
  private static final Instant T = Instant.parse("2026-01-02T03:04:05Z");

  @TempDir
  Path dir;

  @Test
  void aWrittenCheckpointIsReadBackWithItsMicroPartitions() {
    FileCheckpointStore store = new FileCheckpointStore(dir);
    assertThat(store.read("g", 3)).isEmpty();
    long generation = store.claim("g", 3);
    List<Checkpoint> written = List.of(Checkpoint.of("g", 3, new Scn(-2L), generation, T),
        new Checkpoint("g", 3, 0, new Scn(-1L), generation, T), new Checkpoint("g", 3, 1, new Scn(-2L), generation, T));
    store.write(written);
    assertThat(new FileCheckpointStore(dir).read("g", 3)).containsExactlyElementsOf(written);
    assertThat(store.read("g", 3).get(0).scn().toString()).isEqualTo("18446744073709551614");
  }

  @Test
  void theSnapshotCursorIsKeptWithTheScn() {
    FileCheckpointStore store = new FileCheckpointStore(dir);
    assertThat(store.keepsSnapshotCursor()).isTrue();
    long generation = store.claim("g", 1);
    List<Checkpoint> written = List.of(new Checkpoint("g", 1, Checkpoint.WHOLE, new Scn(7), generation, T,
        "db.t\n[1,\"a\"]"));
    store.write(written);
    assertThat(new FileCheckpointStore(dir).read("g", 1)).containsExactlyElementsOf(written);
    store.write(List.of(Checkpoint.of("g", 1, new Scn(8), generation, T)));
    assertThat(store.read("g", 1).get(0).snapshot()).isNull();
  }

  @Test
  void anOlderGenerationIsFencedAndChangesNothing() {
    FileCheckpointStore store = new FileCheckpointStore(dir);
    long old = store.claim("g", 0);
    store.write(List.of(Checkpoint.of("g", 0, new Scn(10), old, T)));
    long current = new FileCheckpointStore(dir).claim("g", 0);
    assertThat(current).isGreaterThan(old);
    assertThat(store.read("g", 0)).singleElement().extracting(Checkpoint::scn).isEqualTo(new Scn(10));
    assertThatThrownBy(() -> store.write(List.of(Checkpoint.of("g", 0, new Scn(20), old, T))))
        .isInstanceOf(CheckpointFencedException.class).hasMessageContaining("generation " + old);
    assertThat(store.read("g", 0)).singleElement().extracting(Checkpoint::scn).isEqualTo(new Scn(10));
    store.write(List.of(Checkpoint.of("g", 0, new Scn(30), current, T)));
    assertThat(store.read("g", 0)).singleElement().extracting(Checkpoint::scn).isEqualTo(new Scn(30));
  }

  @Test
  void aStrayTemporaryFileFromACrashIsIgnoredAndNoTemporaryIsLeft() throws Exception {
    FileCheckpointStore store = new FileCheckpointStore(dir);
    long generation = store.claim("group with spaces/and slash", 1);
    Path file = store.file("group with spaces/and slash", 1);
    Files.writeString(file.resolveSibling("1.json.tmp"), "{\"half\": ");
    store.write(List.of(Checkpoint.of("group with spaces/and slash", 1, new Scn(5), generation, T)));
    assertThat(store.read("group with spaces/and slash", 1)).hasSize(1);
    assertThat(file.getParent().getParent()).isEqualTo(dir);
    try (var files = Files.list(file.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("1.json", "1.lock");
    }
  }

  @Test
  void aCorruptFileIsReportedNotIgnored() throws Exception {
    FileCheckpointStore store = new FileCheckpointStore(dir);
    store.claim("g", 2);
    Files.writeString(store.file("g", 2), "not json");
    assertThatThrownBy(() -> store.read("g", 2)).isInstanceOf(CheckpointException.class).hasMessageContaining("corrupt");
  }
}
