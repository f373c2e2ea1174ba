package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.FaultProxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The relay reads its source through a {@link FaultProxy} (binlog stream and queries alike) under a live
 * {@link KillWorkload}, the consumer applying exactly once into PostgreSQL. Each round waits until the target has a
 * seeded number of transactions more, then resets every relay ↔ source connection every 300 ms for a seeded 1–3 s,
 * then blackholes the link (bytes silently dropped, no RST) for a seeded 2.5–4.5 s — longer than the fetcher's read
 * timeout (three heartbeat intervals, at least 2 s), so it must notice a dead connection that never says so; a shorter
 * one may end before the timeout and the stalled connection simply goes on — and heals it. The
 * relay must reconnect (the proxy accepts new connections after each fault) and resume at its last transaction
 * boundary; 2 rounds, 20 under {@code -Pchaos}. Then target = source ({@link FaultRig#verifier()}).
 */
// 20 rounds under -Pchaos outlasted 600 s on the loaded 2-core development machine (load average ~70): every round
// had passed when the timeout struck in writer.finish
@Timeout(1800)
class RelaySourceFaultsIT {
  @Test
  void resetsAndABlackholeBetweenRelayAndSourceLoseAndDuplicateNothing() throws Exception {
    int rounds = FaultRig.rounds(2);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("relay_source_faults");
        FaultProxy proxy = FaultProxy.start(rig.source.host(), rig.source.port())) {
      rig.readSourceThrough(proxy.port());
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "");
      rig.writer.start();
      Duration worst = Duration.ZERO;
      for (int round = 0; round < rounds; round++) {
        rig.writer.allow(400);
        long faultAt = rig.targetAuditRows() + 20 + rig.random.nextInt(100);
        await("round " + round + ": fault point").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5))
            .until(() -> rig.targetAuditRows() >= faultAt);

        long accepted = proxy.accepted();
        proxy.resetEvery(Duration.ofMillis(300));
        hold(Duration.ofMillis(1000 + rig.random.nextInt(2000)));
        proxy.passThrough();
        assertThat(proxy.connectionsReset()).as("round %d: the resets cut the relay's connections", round).isPositive();

        long beforeBlackhole = proxy.accepted();
        proxy.blackhole();
        hold(Duration.ofMillis(2500 + rig.random.nextInt(2000)));
        proxy.passThrough();
        long healed = System.nanoTime();
        rig.awaitRecovered("round " + round + ": the target has caught up");
        Duration recovery = Duration.ofNanos(System.nanoTime() - healed);
        worst = recovery.compareTo(worst) > 0 ? recovery : worst;
        assertThat(proxy.accepted()).as("round %d: the relay reconnected after the resets and the blackhole", round)
            .isGreaterThan(beforeBlackhole).isGreaterThan(accepted);
      }
      rig.verifyAndReport("relay <-> source resets and blackhole", rounds, worst, started);
      System.out.printf("relay<->source: %d resets cutting %d connections, %d connections accepted%n", proxy.resets(),
          proxy.connectionsReset(), proxy.accepted());
    }
  }

  /** Waits {@code time} (the fault's length), checking nothing. */
  private static void hold(Duration time) {
    long until = System.nanoTime() + time.toNanos();
    await().pollInterval(Duration.ofMillis(20)).atMost(time.plusSeconds(5)).until(() -> System.nanoTime() >= until);
  }
}
