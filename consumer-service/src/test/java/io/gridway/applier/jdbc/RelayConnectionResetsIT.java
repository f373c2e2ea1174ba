package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.FaultProxy;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Relay ↔ consumer connections reset every 2 s under a live {@link KillWorkload}, exactly-once JDBC applier into
 * PostgreSQL: each round lets the writer write 300 more transactions and waits until the target has them and at least
 * one reset has cut an open connection; 3 rounds, 20 under {@code -Pchaos}. Then target = source
 * ({@link FaultRig#verifier()}).
 */
@Timeout(600)
class RelayConnectionResetsIT {
  @Test
  void resetsBetweenRelayAndConsumerLoseAndDuplicateNothing() throws Exception {
    int rounds = FaultRig.rounds(3);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("relay_resets");
        FaultProxy proxy = FaultProxy.start("127.0.0.1", rig.relayPort)) {
      rig.startConsumer(URI.create("http://" + proxy.host() + ":" + proxy.port()), rig.targetUrl(rig.target.port()),
          "");
      rig.writer.start();
      proxy.resetEvery(Duration.ofSeconds(2));
      for (int round = 0; round < rounds; round++) {
        long cut = proxy.connectionsReset();
        rig.writer.allow(300);
        long goal = rig.targetAuditRows() + 150;
        await("round " + round + ": target rows and a reset").atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> proxy.connectionsReset() > cut && rig.targetAuditRows() >= goal);
      }
      rig.writer.finish();
      proxy.passThrough();
      rig.verifier().awaitMatches(Duration.ofSeconds(120));
      assertThat(rig.metric("gridway_consumer_reconnects_total")).as("the resets cut the consumer's pulls")
          .isPositive();
      System.out.printf("relay<->consumer resets: %d rounds, %d resets cutting %d of %d connections, %d source transactions,"
              + " %.0f consumer reconnects, seed %d, %.1f s%n", rounds, proxy.resets(), proxy.connectionsReset(), proxy.accepted(),
          rig.writer.transactions(), rig.metric("gridway_consumer_reconnects_total"), rig.seed,
          (System.nanoTime() - started) / 1e9);
      // The verifier itself can fail: one keyless row applied twice and one keyed row lost are both named.
      rig.target.execute("INSERT INTO \"" + rig.database + "\".audit (seq, tx, what, at)"
          + " SELECT seq, tx, what, at FROM \"" + rig.database + "\".audit ORDER BY applied LIMIT 1",
          "DELETE FROM \"" + rig.database + "\".orders WHERE id = (SELECT min(id) FROM \"" + rig.database + "\".orders)");
      assertThat(String.join("\n", rig.verifier().problems()))
          .contains("audit (append-only)", "1 applied more often than in the source (duplicated)")
          .contains("orders (row)", "1 missing in the target (lost)");
    }
  }
}
