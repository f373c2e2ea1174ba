package io.gridway.applier.jdbc;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The target database SIGKILLed and restarted (same data directory and port) under a live {@link KillWorkload}, the
 * consumer applying exactly once with the JDBC applier: each round waits until the target has applied a seeded number
 * of transactions more (so the kill lands mid-batch, before or after a commit, wherever it falls), kills the server,
 * starts it again and waits until the target has caught up with the source; 2 rounds (1 for MariaDB), 20 under
 * {@code -Pchaos}. Then
 * target = source ({@link FaultRig#verifier()}). PostgreSQL and MariaDB targets: the applier's dialects differ.
 */
@Timeout(600)
class TargetRestartIT {
  @Test
  void postgresTargetKilledAndRestartedMidLoadLosesAndDuplicatesNothing() throws Exception {
    run("target_pg", FaultTarget.Kind.DEDICATED_POSTGRES, "PostgreSQL target kill -9 and restart", 2);
  }

  @Test
  void mariaDbTargetKilledAndRestartedMidLoadLosesAndDuplicatesNothing() throws Exception {
    // The dialect is all that differs from PostgreSQL: one round keeps the default suite short; -Pchaos runs 20.
    run("target_maria", FaultTarget.Kind.DEDICATED_MARIADB, "MariaDB target kill -9 and restart", 1);
  }

  private static void run(String name, FaultTarget.Kind kind, String scenario, int byDefault) throws Exception {
    int rounds = FaultRig.rounds(byDefault);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig(name, new FaultRig.Setup(false, kind, false))) {
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "");
      rig.writer.start();
      Duration worst = Duration.ZERO;
      for (int round = 0; round < rounds; round++) {
        rig.writer.allow(200);
        long killAt = rig.targetAuditRows() + 20 + rig.random.nextInt(120);
        await("round " + round + ": kill point").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5))
            .until(() -> rig.targetAuditRows() >= killAt);
        rig.target.server().kill();
        rig.target.server().start();
        Duration recovery = rig.awaitRecovered("round " + round + ": the target has caught up");
        worst = recovery.compareTo(worst) > 0 ? recovery : worst;
      }
      rig.verifyAndReport(scenario, rounds, worst, started);
    }
  }
}
