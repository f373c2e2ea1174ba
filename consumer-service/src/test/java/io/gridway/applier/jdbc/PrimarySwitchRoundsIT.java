package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.Relay;
import io.gridway.testkit.MariaDbGtidPair;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The source's primary switched under load, over and over (docs/scn.md): a {@link MariaDbGtidPair} written by an
 * {@link OutageWorkload} that follows the primary, two relay replicas with {@code scn: gtid} and both hosts, the
 * consumer applying exactly once into PostgreSQL from the first. Each round lets the writer commit a seeded number of
 * transactions, then switches the primary while the writer keeps writing ({@link MariaDbGtidPair#switchPrimary()}: the
 * primary goes read-only — the writer's commit in flight fails and is retried on the new primary —, the replica
 * catches up, the old primary is killed with SIGKILL and the replica promoted) and waits until the target has every
 * transaction; the killed server then rejoins as the replica, so the next round switches back. 2 rounds, 20 under
 * {@code -Pchaos}. Then target = source ({@link FaultRig#verifier()}), and both relay replicas hold every source
 * transaction once, in GTID order, under the same SCNs ({@code Scn.ofSequence} of its GTID).
 */
@Timeout(1200)
class PrimarySwitchRoundsIT {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void primarySwitchedUnderLoadLosesAndDuplicatesNothingAndRelayReplicasAgree() throws Exception {
    int rounds = FaultRig.rounds(2);
    long started = System.nanoTime();
    try (FaultRig rig = new FaultRig("primary_switch", FaultRig.Setup.PRIMARY_SWITCH)) {
      MariaDbGtidPair pair = rig.pair;
      long firstSequence = sequence(MariaDbGtidPair.gtidBinlogPos(pair.primary())) + 1;
      Relay second = rig.startAnotherRelay("second relay replica");
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "");
      rig.writer.start();
      // The first switch comes once the consumer applies: its start-up is no part of a switch's recovery.
      rig.writer.allow(20);
      await("the consumer applies").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
          .until(() -> rig.targetAuditRows() > 0);
      Duration worst = Duration.ZERO;
      for (int round = 0; round < rounds; round++) {
        rig.writer.allow(250);
        long switchAt = rig.writer.transactions() + 30 + rig.random.nextInt(150);
        await("round " + round + ": switch point").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5))
            .until(() -> rig.writer.transactions() >= switchAt);
        pair.switchPrimary();
        Duration recovery = rig.awaitRecovered("round " + round + ": the target has every transaction after the switch");
        worst = recovery.compareTo(worst) > 0 ? recovery : worst;
        pair.rejoinOldPrimary();
      }
      System.out.printf("primary switch: %d transactions cut by a switch%n", ((OutageWorkload) rig.writer).cut());
      rig.verifyAndReport("source primary switch under load", rounds, worst, started);

      // Both replicas: every source transaction once, SCN = its GTID's sequence, the same list.
      long lastSequence = sequence(MariaDbGtidPair.gtidBinlogPos(pair.primary()));
      long end = Scn.ofSequence(lastSequence).value();
      await("both relay replicas reach the last GTID").atMost(Duration.ofSeconds(120))
          .until(() -> rig.relay().buffer().newestScn() == end && second.buffer().newestScn() == end);
      List<Transaction> one = windows(rig.relay());
      List<Transaction> two = windows(second);
      assertThat(one).as("one window per source transaction").hasSize((int) (lastSequence - firstSequence + 1));
      for (int i = 0; i < one.size(); i++) {
        assertThat(one.get(i).scn()).as("window %d: every GTID once, in order", i)
            .isEqualTo(Scn.ofSequence(firstSequence + i));
      }
      assertThat(new HashSet<>(one.stream().map(Transaction::gtid).toList())).hasSize(one.size());
      assertThat(two).extracting(Transaction::scn).containsExactlyElementsOf(one.stream().map(Transaction::scn).toList());
      assertThat(two).extracting(Transaction::gtid)
          .containsExactlyElementsOf(one.stream().map(Transaction::gtid).toList());
      assertThat(one.stream().map(t -> t.gtid().split("-")[1]).distinct().count())
          .as("transactions of both servers (the primary switched)").isEqualTo(2);
    }
  }

  /** The sequence number of domain 0 in a GTID position such as {@code 0-1001-57}. */
  private static long sequence(String gtidPos) {
    for (String gtid : gtidPos.split(",")) {
      String[] parts = gtid.trim().split("-");
      if (parts[0].equals("0")) {
        return Long.parseLong(parts[2]);
      }
    }
    throw new IllegalStateException("no GTID of domain 0 in " + gtidPos);
  }

  /** Every window {@code relay} holds, read over HTTP from SCN 0 (strictly increasing, or the test fails). */
  private List<Transaction> windows(Relay relay) throws Exception {
    List<Transaction> windows = new ArrayList<>();
    long since = 0;
    long newest = relay.buffer().newestScn();
    while (since != newest) {
      HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + relay.port()
          + "/v1/sources/src/events?since=" + since + "&waitMs=300&maxBytes=16777216"))
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(response.statusCode()).as("relay answer from SCN %d", since).isEqualTo(200);
      FrameReader.Decoded decoded = FrameReader.readTransactions(ByteBuffer.wrap(response.body()));
      for (Transaction tx : decoded.transactions()) {
        assertThat(tx.scn().value()).as("SCNs strictly increase").isGreaterThan(since);
        since = tx.scn().value();
        windows.add(tx);
      }
      for (Heartbeat h : decoded.heartbeats()) {
        since = Math.max(since, h.scn().value());
      }
    }
    return windows;
  }
}
