package io.gridway.applier.jdbc;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The source MariaDB SIGKILLed and restarted (same data directory and port) under a live {@link OutageWorkload}, with
 * the relay reading its binlog and the consumer applying exactly once into PostgreSQL: each round lets the writer
 * commit a seeded number of transactions more, kills the server (mid-transaction, usually), starts it again and waits
 * until the target has every transaction the source kept; 2 rounds, 20 under {@code -Pchaos}. Then target = source
 * ({@link FaultRig#verifier()}).
 */
@Timeout(600)
class SourceKillIT {
  @Test
  void sourceKilledAndRestartedMidLoadLosesAndDuplicatesNothing() throws Exception {
    int rounds = FaultRig.rounds(2);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("source_kill", new FaultRig.Setup(true, FaultTarget.Kind.SHARED_POSTGRES, false))) {
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "");
      rig.writer.start();
      Duration worst = Duration.ZERO;
      for (int round = 0; round < rounds; round++) {
        rig.writer.allow(250);
        long killAt = rig.writer.transactions() + 30 + rig.random.nextInt(150);
        await("round " + round + ": kill point").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5))
            .until(() -> rig.writer.transactions() >= killAt);
        rig.source.kill();
        rig.source.start();
        Duration recovery = rig.awaitRecovered("round " + round + ": the target has what the source kept");
        worst = recovery.compareTo(worst) > 0 ? recovery : worst;
      }
      System.out.printf("source kill: %d transactions cut by a kill%n", ((OutageWorkload) rig.writer).cut());
      rig.verifyAndReport("source MariaDB kill -9 and restart", rounds, worst, started);
    }
  }
}
