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
 * connection, heals the link and waits until the lag is back under a second; 2 rounds, 20 under {@code -Plong}.
 * Then target = source ({@link FaultRig#verifier()}).
 */
@Timeout(600)
class SlowTargetIT {
  private static final long BUFFER_BYTES = 1 << 20;

  @Test
  void slowThenResetTargetKeepsMemoryBoundedAndCatchesUpExactly() throws Exception {
    int rounds = FaultRig.rounds(2);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("slow_target");
        FaultProxy proxy = FaultProxy.start("127.0.0.1", rig.postgres.port())) {
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
        await("round " + round + ": the writer ahead and the lag growing").atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(200)).until(() -> {
              roundLag.set(Math.max(roundLag.get(), rig.metric("gridway_consumer_lag_ms")));
              return rig.writer.transactions() >= goal && roundLag.get() >= 1000;
            });
        maxLag = Math.max(maxLag, roundLag.get());
        maxBuffer = Math.max(maxBuffer, rig.metric("gridway_consumer_buffer_bytes"));
        assertThat(rig.metric("gridway_consumer_buffer_bytes")).as("receive buffer within pull.bufferBytes")
            .isLessThanOrEqualTo(BUFFER_BYTES + 8 << 20); // one window (relay maxWindow 8MiB) may go over, alone
        assertThat(proxy.resetAll()).as("the consumer holds a target connection").isPositive();
        proxy.passThrough();
        long healed = System.nanoTime();
        await("round " + round + ": lag recovers").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
            .until(() -> rig.targetAuditRows() > 0 && rig.metric("gridway_consumer_lag_ms") < 1000);
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
