package io.gridway.relay.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.config.ByteSize;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.snapshot.Chunk;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.core.snapshot.SnapshotReader;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The relay's {@code snapshot.chunksPerSecond}: chunk reads start at least 1/rate apart, whichever reader reads them. */
class ChunkPacingTest {
  private static final TableSchema TABLE = TableSchema.of("src", "d", "t", List.of(Column.of("id", ColumnType.BIGINT)
      .notNull()), List.of("id"));

  @Test
  void chunkReadsStartOneSlotApartAcrossReaders() throws Exception {
    ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
    SnapshotService service = new SnapshotService("src", reader(starts), SnapshotService.Routing.unpartitioned(),
        new SnapshotConfig(2, null, null, 20).limits(), Clock.systemUTC());
    service.awaitProcessed(() -> -1L, () -> false);
    List<CompletableFuture<SnapshotService.Answer>> answers = new ArrayList<>();
    long asked = System.nanoTime(); // before the first slot
    for (int round = 0; round < 6; round++) {
      answers.clear();
      for (int i = 0; i < 2; i++) { // both readers at once
        answers.add(service.read(new SnapshotService.Query(new ChunkRequest("d", "t", List.of(), 10, 1 << 20), new BitSet(), 0)));
      }
      for (CompletableFuture<SnapshotService.Answer> a : answers) {
        a.get(10, TimeUnit.SECONDS);
      }
    }
    List<Long> sorted = starts.stream().sorted().toList();
    assertThat(sorted).hasSize(12);
    // slots are 50 ms apart from the first ask and a read never starts before its slot, so the k-th start (from 0)
    // comes at least k slots after the first ask (a late thread may start after a later slot's, so not pairwise)
    for (int k = 0; k < sorted.size(); k++) {
      assertThat(sorted.get(k) - asked).as("start %d", k).isGreaterThanOrEqualTo(k * TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  @Test
  void withoutALimitReadsDoNotWait() throws Exception {
    ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
    SnapshotService service = new SnapshotService("src", reader(starts), SnapshotService.Routing.unpartitioned(),
        SnapshotService.Limits.DEFAULT, Clock.systemUTC());
    service.awaitProcessed(() -> -1L, () -> false);
    assertThat(SnapshotService.Limits.DEFAULT.chunksPerSecond()).isZero();
    service.read(new SnapshotService.Query(new ChunkRequest("d", "t", List.of(), 10, 1 << 20), new BitSet(), 0))
        .get(10, TimeUnit.SECONDS);
    assertThat(starts).hasSize(1);
  }

  @Test
  void theSectionIsCheckedKeyByKey() {
    SnapshotConfig defaults = SnapshotConfig.defaults();
    assertThat(defaults.limits()).isEqualTo(new SnapshotService.Limits(20_000, 64L << 20, 2, 0));
    assertThat(new SnapshotConfig(4, 5_000, ByteSize.ofMebibytes(8), 10).limits())
        .isEqualTo(new SnapshotService.Limits(5_000, 8L << 20, 4, 10));
    assertThatThrownBy(() -> new SnapshotConfig(0, null, null, null)).hasMessageContaining("readers must be 1..64, not 0");
    assertThatThrownBy(() -> new SnapshotConfig(null, 0, null, null)).hasMessageContaining("maxChunkRows");
    assertThatThrownBy(() -> new SnapshotConfig(null, null, new ByteSize(10), null)).hasMessageContaining("maxChunkBytes");
    assertThatThrownBy(() -> new SnapshotConfig(null, null, null, -1)).hasMessageContaining("chunksPerSecond");
  }

  private static SnapshotReader reader(ConcurrentLinkedQueue<Long> starts) {
    return new SnapshotReader() {
      @Override
      public Chunk read(ChunkRequest request) {
        starts.add(System.nanoTime());
        Scn high = Scn.ofBinlog(1, 1000);
        return new Chunk(TABLE, List.of(), high, high, List.of(), true, 0);
      }

      @Override
      public long estimatedRows(String database, String table) {
        return -1;
      }
    };
  }
}
