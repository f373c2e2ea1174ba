package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Bytes;
import io.gridway.core.schema.TableSchema;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class SnapshotRangeTest {
  private static final TableSchema T = TestFrames.SCHEMA;

  @Test
  void aTablesFirstChunkStartsAtItsLowestKeyAndItsLastRunsToItsEnd() {
    SnapshotRange first = SnapshotRange.of(T, null, "[10]", false);
    assertThat(first.after()).isNull();
    assertThat(first.through()).containsExactly(10L);
    SnapshotRange last = SnapshotRange.of(T, "[10]", "[]", true);
    assertThat(last.after()).containsExactly(10L);
    assertThat(last.through()).isNull();
  }

  @Test
  void keyValuesAreReadAsTheRelayWritesThem() {
    assertThat(SnapshotRange.key("[1, 18446744073709551615, \"x\", {\"hex\": \"0aff\"}]")).containsExactly(1L,
        new BigInteger("18446744073709551615"), "x", Bytes.wrap(new byte[] {0x0a, (byte) 0xff}));
  }

  @Test
  void aKeyThatIsNotANonEmptyArrayIsRefusedSayingWhatItIs() {
    assertThatThrownBy(() -> SnapshotRange.key("{}")).hasMessageContaining("non-empty JSON array of key values, not {}");
    assertThatThrownBy(() -> SnapshotRange.key("[true]")).hasMessageContaining("key values are numbers, strings or {\"hex\": …}, not true");
  }
}
