package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.FaultProxy;
import io.gridway.testkit.FaultProxy.Direction;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slow consumer ↔ target link, then a reset of it, under a live {@link KillWorkload}: each round adds 50 ms per
 * direction between the consumer and PostgreSQL while the writer writes 400 transactions, checks that the
 * consumer's lag grows while its receive buffer stays within {@code pull.bufferBytes}, resets every target
 * connection, heals the link and waits until the target has caught up; 2 rounds, 20 under {@code -Pchaos}.
 * Then target = source ({@link FaultRig#verifier()}).
 */
// 20 rounds under -Pchaos (400 transactions each through 50 ms each way) outlasted 600 s on the loaded 2-core
// development machine (load average ~80); every round had passed
@Timeout(1800)
class SlowTargetIT {
  private static final long BUFFER_BYTES = 1 << 20;

  @Test
  void slowThenResetTargetKeepsMemoryBoundedAndCatchesUpExactly() throws Exception {
    int rounds = FaultRig.rounds(2);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("slow_target");
        FaultProxy proxy = FaultProxy.start("127.0.0.1", rig.target.port())) {
      rig.startConsumer(URI.create("http://127.0.0.1:" + rig.relayPort), rig.targetUrl(proxy.port()),
          ", bufferBytes: 1MiB");
      rig.writer.start();
      double maxBuffer = 0;
      double maxLag = 0;
      long worstRecoveryMs = 0;
      for (int round = 0; round < rounds; round++) {
        proxy.latency(Direction.UPSTREAM, Duration.ofMillis(50)).latency(Direction.DOWNSTREAM, Duration.ofMillis(50));
        long goal = rig.writer.transactions() + 400;
        rig.writer.allow(400);
        AtomicReference<Double> roundLag = new AtomicReference<>(0.0);
        AtomicReference<Double> roundBuffer = new AtomicReference<>(0.0);
        await("round " + round + ": the writer ahead and the lag growing").atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(200)).until(() -> {
              roundLag.set(Math.max(roundLag.get(), rig.metric("gridway_consumer_lag_ms")));
              roundBuffer.set(Math.max(roundBuffer.get(), rig.metric("gridway_consumer_buffer_bytes")));
              return rig.writer.transactions() >= goal && roundLag.get() >= 1000;
            });
        maxLag = Math.max(maxLag, roundLag.get());
        maxBuffer = Math.max(maxBuffer, roundBuffer.get());
        // One window larger than the buffer is still admitted, alone (the relay's maxWindow is 8MiB).
        assertThat(roundBuffer.get()).as("receive buffer within pull.bufferBytes, sampled while slow")
            .isBetween(1.0, (double) (BUFFER_BYTES + (8L << 20)));
        assertThat(proxy.resetAll()).as("the consumer holds a target connection").isPositive();
        proxy.passThrough();
        long healed = System.nanoTime();
        // Caught up: the writer is idle (it wrote all it was allowed), nothing is held, the target has every row.
        // (lag.ms is set per commit from the binlog's whole-second timestamps, so it is not read as "caught up".)
        await("round " + round + ": lag recovers").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
            .until(() -> rig.metric("gridway_consumer_lag_events") == 0
                && rig.targetAuditRows() == rig.sourceAuditRows());
        worstRecoveryMs = Math.max(worstRecoveryMs, (System.nanoTime() - healed) / 1_000_000);
      }
      rig.writer.finish();
      rig.verifier().awaitMatches(Duration.ofSeconds(120));
      System.out.printf("slow target: %d rounds (50 ms each way, then reset), %d source transactions, max lag %.0f ms,"
              + " max buffer %.0f bytes, worst recovery %d ms, %.0f applier retries, seed %d, %.1f s%n", rounds,
          rig.writer.transactions(), maxLag, maxBuffer, worstRecoveryMs, rig.metric("gridway_consumer_retries_total"),
          rig.seed, (System.nanoTime() - started) / 1e9);
    }
  }
}
