package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.testkit.SqlRows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A relay restarted without its position file and with {@code start: end} begins at the binlog's end, past the
 * transactions written while it was down. A consumer whose checkpoint lies before that start must not be served the new
 * windows as if nothing were missing (it used to be: the restarted relay's buffer floor was SCN 0, so the consumer
 * silently skipped the gap): the relay answers 410 (SCN evicted) below the SCN its fetcher started at, and the consumer,
 * {@code onEvicted: stop}, stops with exit code 2 and one ERROR line, its PostgreSQL target holding exactly the source's
 * transactions up to the gap — nothing from after it.
 */
@Timeout(600)
class RelayStartAtEndIT {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private long allowed;

  @Test
  void aConsumerOlderThanARelaysFreshStartIsToldItWasEvictedInsteadOfSkippingTheGap() throws Exception {
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("relay_start_end",
        new FaultRig.Setup(false, FaultTarget.Kind.SHARED_POSTGRES, true))) {
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "", "partitions: [0]\n  onEvicted: stop", "");
      rig.writer.start();
      write(rig, 60);
      long before = rig.sourceAuditRows();
      await("the target has the first transactions").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
          .until(() -> rig.targetAuditRows() >= before);
      rig.verifier().awaitMatches(Duration.ofSeconds(60));
      long checkpoint = rig.relay().buffer().newestScn();

      // The gap: written while no relay reads the source.
      rig.stopRelay();
      write(rig, 30 + rig.random.nextInt(50));
      long gapEnd = lastAuditSeq(rig, false);

      rig.restartRelayAtEndWithoutPosition();
      await("the restarted relay reads the source").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
          .until(() -> get(rig, "/health/ready") == 200);
      write(rig, 20); // after the restart: what the relay serves
      await("the restarted relay has the new transactions").atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50)).until(() -> rig.relay().buffer().windowsPublished() >= 20);

      Process consumer = rig.consumer();
      await("the consumer stops, or applies past the gap").atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(100)).until(() -> !consumer.isAlive() || lastAuditSeq(rig, true) > gapEnd);
      assertThat(consumer.waitFor(10, TimeUnit.SECONDS))
          .as("the consumer went on past the gap (target's last audit seq %d, the gap ended at %d):%n%s",
              lastAuditSeq(rig, true), gapEnd, rig.consumerOutput()).isTrue();
      assertThat(consumer.exitValue()).as(rig.consumerOutput()).isEqualTo(2);
      assertThat(rig.consumerOutput().lines().filter(l -> l.contains(" ERROR ") && l.contains(
          "group faults partition 0: checkpoint SCN ") && l.contains("onEvicted: stop"))).hasSize(1);

      // The relay's side: below the SCN its fetcher started at it answers 410, at it 200.
      long floor = rig.relay().buffer().evictedThroughScn();
      assertThat(Long.compareUnsigned(floor, checkpoint)).as("the fresh start's floor lies past the checkpoint")
          .isPositive();
      assertThat(get(rig, events(checkpoint))).as("since=checkpoint, before the floor").isEqualTo(410);
      assertThat(get(rig, events(floor))).as("since=floor").isEqualTo(200);

      // Exactly the source's keyless rows up to the last one the target has, and none from the gap or after it.
      long last = lastAuditSeq(rig, true);
      assertThat(last).isLessThan(gapEnd);
      assertThat(SqlRows.of(rig.target.connect(), "SELECT seq FROM " + rig.target.table("audit") + " ORDER BY applied"))
          .isEqualTo(SqlRows.of(rig.source.connect(rig.database), "SELECT seq FROM audit WHERE seq <= " + last
              + " ORDER BY seq"));
      rig.writer.finish();
      System.out.printf("reliability | relay restarted without its position file, start: end | 1 | 0 | 0 | consumer stops"
              + " (410 below the relay's start) | %d source transactions, seed %d, %.1f s in all%n",
          rig.writer.transactions(), rig.seed, (System.nanoTime() - started) / 1e9);
    }
  }

  /** Lets the writer write {@code more} transactions and waits until it has. */
  private void write(FaultRig rig, int more) {
    allowed += more;
    rig.writer.allow(more);
    await("the writer").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
        .until(() -> rig.writer.transactions() >= allowed);
  }

  private static long lastAuditSeq(FaultRig rig, boolean target) throws Exception {
    String max = target
        ? SqlRows.of(rig.target.connect(), "SELECT coalesce(max(seq), 0) FROM " + rig.target.table("audit")).get(0)
        : SqlRows.of(rig.source.connect(rig.database), "SELECT coalesce(max(seq), 0) FROM audit").get(0);
    return Long.parseLong(max);
  }

  private static String events(long since) {
    return "/v1/sources/src/events?partitions=0&waitMs=0&since=" + Long.toUnsignedString(since);
  }

  private int get(FaultRig rig, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(rig.relayUri() + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
