package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@code snapshot.maxBytesPerSecond}: each chunk's bytes are paid for in time before the next chunk is asked. */
class SnapshotThrottleTest {
  @Test
  void theNextChunkWaitsUntilTheBytesReceivedArePaidForAtTheRate() {
    AtomicLong now = new AtomicLong(1_000_000_000L);
    SnapshotThrottle throttle = new SnapshotThrottle(1_000_000, now::get); // 1 MB/s
    assertThat(throttle.ready()).isTrue();
    throttle.charge(500_000); // half a second's worth
    assertThat(throttle.ready()).isFalse();
    now.addAndGet(499_000_000L);
    assertThat(throttle.ready()).isFalse();
    now.addAndGet(1_000_000L);
    assertThat(throttle.ready()).isTrue();
    // two partitions' chunks arriving together add up: a second's worth in all
    throttle.charge(500_000);
    throttle.charge(500_000);
    now.addAndGet(999_000_000L);
    assertThat(throttle.ready()).isFalse();
    now.addAndGet(1_000_000L);
    assertThat(throttle.ready()).isTrue();
    // an idle spell is no credit: after it, the next chunk's bytes are owed from its arrival
    now.addAndGet(10_000_000_000L);
    throttle.charge(250_000);
    now.addAndGet(249_000_000L);
    assertThat(throttle.ready()).isFalse();
  }

  @Test
  void withoutALimitNothingWaits() {
    SnapshotThrottle throttle = SnapshotThrottle.of(new ConsumerConfig.Snapshot(java.util.List.of("d.t"), null, null));
    throttle.charge(Long.MAX_VALUE / 2);
    assertThat(throttle.ready()).isTrue();
  }
}
