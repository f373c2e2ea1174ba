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
    SnapshotRange first = SnapshotRange.of(T, null, "[10]", false, "whole", 0);
    assertThat(first.after()).isNull();
    assertThat(first.through()).containsExactly(10L);
    SnapshotRange last = SnapshotRange.of(T, "[10]", "[]", true, "whole", 0);
    assertThat(last.after()).containsExactly(10L);
    assertThat(last.through()).isNull();
    assertThat(last.keyHash()).isNull();
  }

  @Test
  void underAKeyHashTheRangeIsTheAskingPartitionsShare() {
    SnapshotRange range = SnapshotRange.of(T, "[10]", "[20]", false, "key-hash; buckets=8; offset=2", 5);
    assertThat(range.keyHash()).isEqualTo(new SnapshotRange.KeyHashShare(8, 2, 5));
    assertThat(range.after()).containsExactly(10L);
    assertThat(range.through()).containsExactly(20L);
  }

  @Test
  void aRangeOfAKindThisConsumerDoesNotKnowOrNoneDeletesNothing() {
    assertThat(SnapshotRange.of(T, "[10]", "[20]", false, null, 0)).isNull();
    assertThat(SnapshotRange.of(T, "[10]", "[20]", false, "by-value; column=region", 0)).isNull();
    assertThat(SnapshotRange.of(T, "[10]", "[20]", false, "key-hash-v2; buckets=4; offset=0", 0)).isNull();
    assertThat(SnapshotRange.of(T, "[10]", "[20]", false, "wholesale", 0)).isNull();
  }

  @Test
  void aMalformedKeyHashRangeIsRefusedSayingWhatIsWrong() {
    assertThatThrownBy(() -> SnapshotRange.of(T, null, "[1]", false, "key-hash; buckets=x; offset=0", 0))
        .hasMessage("snapshot range \"key-hash; buckets=x; offset=0\": buckets is not a number");
    assertThatThrownBy(() -> SnapshotRange.of(T, null, "[1]", false, "key-hash; buckets=4", 0))
        .hasMessageContaining("is not of the form \"key-hash; buckets=B; offset=O\"");
    assertThatThrownBy(() -> SnapshotRange.of(T, null, "[1]", false, "key-hash; buckets=0; offset=0", 0))
        .hasMessage("a key hash over 0 buckets from 0");
    assertThat(SnapshotRange.of(T, null, "[1]", false, "key-hash; buckets=4; offset=0; column=x", 0))
        .as("a parameter it does not know: nothing deleted").isNull();
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
