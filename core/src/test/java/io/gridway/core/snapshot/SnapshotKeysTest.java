package io.gridway.core.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.Bytes;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class SnapshotKeysTest {
  @Test
  void readsIntegersBeyondLongTextAndBinaryValues() {
    assertThat(SnapshotKeys.parse("[1, 18446744073709551615, \"2026-11-26 10:00:00\", {\"hex\": \"00ff\"}]"))
        .containsExactly(1L, new BigInteger("18446744073709551615"), "2026-11-26 10:00:00",
            Bytes.wrap(new byte[] {0, (byte) 0xff}));
  }

  @Test
  void refusesWhatIsNotAKeyNamingIt() {
    assertThatThrownBy(() -> SnapshotKeys.parse("[1,")).hasMessageStartingWith("is not JSON: ");
    assertThatThrownBy(() -> SnapshotKeys.parse("[]")).hasMessage("must be a non-empty JSON array of key values, not []");
    assertThatThrownBy(() -> SnapshotKeys.parse("[{\"hex\": \"zz\"}]")).hasMessage("hex value is not hexadecimal: {\"hex\":\"zz\"}");
    assertThatThrownBy(() -> SnapshotKeys.parse("[1.5]")).hasMessage("key values are numbers, strings or {\"hex\": …}, not 1.5");
    assertThatThrownBy(() -> SnapshotKeys.parse("[\"" + "x".repeat(100) + "\", null]"))
        .hasMessage("key values are numbers, strings or {\"hex\": …}, not null");
  }
}
