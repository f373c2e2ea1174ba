package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.KeyRouting;
import io.gridway.relay.snapshot.SnapshotService;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which chunks tell their consumer it may delete the range's absent target rows, and which of them (§5.3). */
class SnapshotRangeHeaderTest {
  private static final TableSchema KEYED = TableSchema.of("src", "shop", "orders",
      List.of(Column.of("id", ColumnType.BIGINT).notNull()), List.of("id"));
  private static final TableSchema KEYLESS = TableSchema.of("src", "shop", "log",
      List.of(Column.of("n", ColumnType.BIGINT)), List.of());

  @Test
  void aTableOfOnePartitionIsWholeForThatPartitionsConsumerOnly() {
    assertThat(SnapshotEndpoint.range(answer(KEYED, new KeyRouting.OnePartition(2)), asked(2))).isEqualTo("whole");
    // a consumer of another partition has no row of the table on its target: it deletes nothing
    assertThat(SnapshotEndpoint.range(answer(KEYED, new KeyRouting.OnePartition(2)), asked(0))).isNull();
  }

  @Test
  void aKeyHashIsStatedSoTheConsumerDeletesOnlyItsOwnKeys() {
    assertThat(SnapshotEndpoint.range(answer(KEYED, new KeyRouting.KeyHash(16, 4)), asked(7)))
        .isEqualTo("key-hash; buckets=16; offset=4");
  }

  @Test
  void keylessTablesAndKeysTheConsumerCannotPlaceHaveNoRange() {
    assertThat(SnapshotEndpoint.range(answer(KEYLESS, new KeyRouting.OnePartition(0)), asked(0))).isNull();
    assertThat(SnapshotEndpoint.range(answer(KEYED, new KeyRouting.Unknown("by value of region")), asked(0))).isNull();
  }

  private static SnapshotService.Answer answer(TableSchema schema, KeyRouting keys) {
    return new SnapshotService.Answer(null, Scn.ofSnapshot(new Scn(100), 1), List.of(5L), false, 10, schema, 100, keys);
  }

  private static BitSet asked(int partition) {
    BitSet asked = new BitSet();
    asked.set(partition);
    return asked;
  }
}
