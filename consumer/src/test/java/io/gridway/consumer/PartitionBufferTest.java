package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PartitionBufferTest {
  private static WindowData window(long scn, int bytes) {
    return new WindowData(scn, 0, 0, new byte[bytes], new int[] {0}, null, 0);
  }

  @Test
  void aRefusedWindowIsSignalledOnlyOnceItFits() {
    PartitionBuffer buffer = new PartitionBuffer(1000);
    assertThat(buffer.tryOffer(window(1, 600))).isTrue();
    assertThat(buffer.tryOffer(window(2, 300))).isTrue();
    assertThat(buffer.tryOffer(window(3, 500))).isFalse(); // staged bytes count before they are published
    buffer.publish();
    assertThat(buffer.tryOffer(window(3, 500))).isFalse();
    AtomicInteger told = new AtomicInteger();
    buffer.onSpace(500, told::incrementAndGet);
    buffer.release(300); // 600 held: 500 more would not fit
    assertThat(told).hasValue(0);
    buffer.release(600); // nothing held
    assertThat(told).hasValue(1);
    buffer.release(0);
    assertThat(told).hasValue(1);
  }

  @Test
  void aWindowLargerThanTheBufferIsAdmittedAlone() {
    PartitionBuffer buffer = new PartitionBuffer(1000);
    assertThat(buffer.tryOffer(window(1, 5000))).isTrue();
    assertThat(buffer.tryOffer(window(2, 1))).isFalse();
    assertThat(buffer.tryOffer(WindowData.heartbeat(3, 0, 0, 0))).isTrue();
    assertThat(buffer.heldBytes()).isZero(); // not yet published
    buffer.publish();
    assertThat(buffer.heldBytes()).isEqualTo(5000);
    assertThat(buffer.peakBytes()).isEqualTo(5000);
  }

  @Test
  void publishedWindowsDrainWithinBudgetsAndHeartbeatsCoalesce() throws Exception {
    PartitionBuffer buffer = new PartitionBuffer(1 << 20);
    long seen = buffer.publications();
    buffer.tryOffer(window(1, 100));
    buffer.tryOffer(WindowData.heartbeat(2, 0, 0, 0));
    buffer.tryOffer(WindowData.heartbeat(3, 0, 0, 0));
    buffer.tryOffer(window(4, 100));
    buffer.tryOffer(window(5, 100));
    List<WindowData> out = new ArrayList<>();
    assertThat(buffer.drainTo(out, 100, 1 << 20, w -> false)).isFalse();
    assertThat(out).isEmpty(); // staged, not yet published
    buffer.publish();
    assertThat(buffer.awaitPublication(seen, 1, TimeUnit.SECONDS)).isTrue();
    assertThat(buffer.drainTo(out, 2, 1 << 20, w -> false)).isTrue();
    assertThat(out).extracting(WindowData::scn).containsExactly(1L, 3L, 4L);
    out.clear();
    assertThat(buffer.drainTo(out, 1, 1 << 20, w -> w.scn() == 5)).isTrue();
    assertThat(out).extracting(WindowData::scn).containsExactly(5L); // "alone" as the first of a batch
  }
}
