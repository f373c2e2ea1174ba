package io.gridway.relay.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.snapshot.Chunk;
import io.gridway.core.snapshot.ChunkReadException;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.core.snapshot.SnapshotReader;
import java.time.Clock;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A relay whose fetcher halted answers chunk requests at once, without reading, and stops a chunk waiting for the log. */
class HaltedSnapshotTest {
  private static final ChunkRequest REQUEST = new ChunkRequest("d", "t", List.of(), 100, 1 << 20);
  private static final TableSchema TABLE = TableSchema.of("src", "d", "t", List.of(Column.of("id", ColumnType.BIGINT)
      .notNull()), List.of("id"));

  @Test
  void aHaltedRelayReadsNoChunkAndSaysWhy() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    SnapshotService service = new SnapshotService("src", reader(reads, new AtomicBoolean()),
        SnapshotService.Routing.unpartitioned(), SnapshotService.Limits.DEFAULT, Clock.systemUTC());
    service.awaitProcessed(() -> 0L, () -> true);

    Throwable failure = failureOf(service);

    assertThat(failure).isInstanceOf(ChunkReadException.class).hasMessageContaining("fetcher has halted");
    assertThat(reads).hasValue(0);
  }

  @Test
  void aChunkWaitingForTheLogStopsWaitingWhenTheFetcherHalts() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    AtomicBoolean halted = new AtomicBoolean();
    SnapshotService service = new SnapshotService("src", reader(reads, halted),
        SnapshotService.Routing.unpartitioned(), SnapshotService.Limits.DEFAULT, Clock.systemUTC());
    // the log never reaches the chunk's high watermark; the reader halts the fetcher once it has read the chunk
    service.awaitProcessed(() -> 0L, halted::get);

    long started = System.nanoTime();
    Throwable failure = failureOf(service);

    assertThat(failure).isInstanceOf(ChunkReadException.class).hasMessageContaining("fetcher has halted");
    assertThat(reads).hasValue(1);
    // without the check the chunk waited the full 30 s for the log
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).isLessThan(20);
  }

  private static Throwable failureOf(SnapshotService service) throws Exception {
    try {
      service.read(new SnapshotService.Query(REQUEST, new BitSet(), 0)).get(25, TimeUnit.SECONDS);
      throw new AssertionError("the chunk was answered");
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
    }
  }

  private static SnapshotReader reader(AtomicInteger reads, AtomicBoolean haltAfterRead) {
    return new SnapshotReader() {
      @Override
      public Chunk read(ChunkRequest request) {
        reads.incrementAndGet();
        haltAfterRead.set(true);
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
