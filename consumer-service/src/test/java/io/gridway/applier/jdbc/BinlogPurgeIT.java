package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gridway.testkit.SqlRows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The source's binlog purged past the relay's position: under a live {@link OutageWorkload}, with the consumer
 * applying exactly once into PostgreSQL, the target first matches the source ({@link FaultRig#verifier()}). Then, each
 * round (one, 20 under {@code -Pchaos}): the relay stops after a seeded number of transactions more, the writer goes
 * on, and the source rotates and purges its binlog. The restarted relay (resuming from its position file) must halt
 * clearly — one ERROR line naming the source, the file and the position, {@code /health/ready} 503 with the source
 * HALTED — and must not resume later in the log: restarted again while the writer keeps writing, it halts again and
 * the target gains nothing; its keyless table is exactly the source's up to the last transaction the relay read.
 * Then the documented way on (docs/bootstrap.md §5.2): the relay's position file moved aside and the relay started from
 * {@code earliest}; the consumer, whose checkpoint lies before the relay's new floor, re-seeds with {@code onEvicted:
 * snapshot} — in the first round after the operator restarted it with that setting (it ran with the default {@code
 * stop}), later by itself — and the target ends equal to the source.
 */
@Timeout(1800)
class BinlogPurgeIT {
  private static final String RESEEDING = "onEvicted: snapshot — re-seeding";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aPurgedPositionHaltsTheRelayClearlyItNeverResumesLaterInTheLogAndAReSeedIsTheWayOn() throws Exception {
    int rounds = FaultRig.rounds(1);
    long started = System.nanoTime();
    Logger fetcherLog = (Logger) LoggerFactory.getLogger("io.gridway.fetcher.mysql.MysqlBinlogFetcher");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    fetcherLog.addAppender(lines);
    try (FaultRig rig = new FaultRig("binlog_purge", new FaultRig.Setup(true, FaultTarget.Kind.SHARED_POSTGRES, true))) {
      rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), ""); // onEvicted: stop, the default
      rig.writer.start();
      rig.writer.allow(100);
      awaitWritten(rig);
      long written = rig.sourceAuditRows();
      await("the target has the first transactions").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
          .until(() -> rig.targetAuditRows() >= written);
      rig.verifier().awaitMatches(Duration.ofSeconds(60));

      long halted = 0;
      long reseeded = 0;
      String firstConsumer = "";
      for (int round = 0; round < rounds; round++) {
        // Kill point: the relay stops mid-load, a seeded number of transactions into the next 150.
        rig.writer.allow(150);
        long stopAt = rig.writer.transactions() + 10 + rig.random.nextInt(100);
        await("round " + round + ": the relay's stop point").atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(2)).until(() -> rig.writer.transactions() >= stopAt);
        rig.stopRelay();
        awaitWritten(rig);
        String purgedTo = purgeBinlogs(rig);
        long applied = settledAuditRows(rig);

        for (int restart = 0; restart < 2; restart++) {
          int errorsBefore = errors(lines).size();
          long begin = System.nanoTime();
          rig.restartRelay();
          rig.writer.allow(20); // later transactions, in the binlog the relay must not skip to
          await("round " + round + ", restart " + restart + ": halted and not ready").atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofMillis(50)).until(() -> ready(rig).statusCode() == 503
                  && ready(rig).body().contains("\"HALTED\"") && errors(lines).size() > errorsBefore);
          halted = Math.max(halted, (System.nanoTime() - begin) / 1_000_000);
          List<String> errors = errors(lines);
          String error = errors.get(errors.size() - 1);
          assertThat(errors).as("one ERROR line per halt").hasSize(errorsBefore + 1);
          assertThat(error).contains("relay source src", "mariadb-bin.", "has been purged",
              "the oldest binlog file available is " + purgedTo, rig.source.host() + ":" + rig.source.port());
          assertThat(error).as("names the position").containsPattern("binlog position mariadb-bin\\.\\d+:\\d+ ");
          awaitWritten(rig);
        }
        // Also while a consumer with onEvicted: snapshot (rounds after the first) asks the halted relay for chunks.
        await("round " + round + ": the target gains nothing from after the purge").during(Duration.ofSeconds(2))
            .atMost(Duration.ofSeconds(10)).until(() -> rig.targetAuditRows() == applied);
        assertThat(rig.sourceAuditRows()).as("the source went on").isGreaterThan(applied);
        // Exactly the source's keyless rows up to the last one the target has: none lost, none twice, no gap.
        long last = Long.parseLong(SqlRows.of(rig.target.connect(), "SELECT max(seq) FROM " + rig.target.table("audit"))
            .get(0));
        assertThat(SqlRows.of(rig.target.connect(), "SELECT seq FROM " + rig.target.table("audit") + " ORDER BY applied"))
            .isEqualTo(SqlRows.of(rig.source.connect(rig.database), "SELECT seq FROM audit WHERE seq <= " + last
                + " ORDER BY seq"));

        // The way on, as the ERROR line says: the position file moved aside, the relay started from 'earliest'.
        if (round == 0) {
          Process first = rig.consumer(); // evicted with onEvicted: stop it has exited 2; else it waits on 410
          firstConsumer = first.isAlive() ? "waiting" : "exited " + first.exitValue();
          first.destroyForcibly().waitFor();
        }
        long begin = System.nanoTime();
        rig.restartRelayAfterPurge("earliest");
        await("round " + round + ": the relay is ready again").atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(50)).until(() -> ready(rig).statusCode() == 200);
        if (round == 0) {
          String db = rig.database;
          rig.startConsumer(rig.relayUri(), rig.targetUrl(rig.target.port()), "", """
              partitions: [0]
                onEvicted: snapshot
                snapshot: {tables: [%s.accounts, %s.orders, %s.order_lines, %s.audit], chunkRows: 200}"""
              .formatted(db, db, db, db), "");
        }
        rig.writer.allow(100); // writes during the re-seed and after it
        awaitWritten(rig);
        rig.verifier().awaitMatches(Duration.ofSeconds(180));
        reseeded = Math.max(reseeded, (System.nanoTime() - begin) / 1_000_000);
        assertThat(rig.consumer().isAlive()).as(rig.consumerOutput()).isTrue();
      }
      assertThat(occurrences(rig.consumerOutput(), RESEEDING)).as("a re-seed each round").isGreaterThanOrEqualTo(rounds);
      rig.writer.finish();
      rig.verifier().awaitMatches(Duration.ofSeconds(120));
      System.out.printf("reliability | source binlog purged past the relay's position, then re-seeded | %d | 0 | 0 |"
              + " halts (ERROR, not ready) within %.1f s of each start, never resumes; after the re-seed (relay from"
              + " earliest, onEvicted: snapshot) equal within %.1f s of the relay's start | %d relay starts, %d re-seeds,"
              + " first consumer (onEvicted: stop) %s, %d source transactions, seed %d, %.1f s in all%n", rounds,
          halted / 1000.0, reseeded / 1000.0, rounds * 3, occurrences(rig.consumerOutput(), RESEEDING),
          firstConsumer, rig.writer.transactions(), rig.seed, (System.nanoTime() - started) / 1e9);
    } finally {
      fetcherLog.detachAppender(lines);
    }
  }

  private static int occurrences(String text, String what) {
    int n = 0;
    for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }

  /** The target's keyless rows once the consumer has applied all it received (the count stays put for 1 s). */
  private static long settledAuditRows(FaultRig rig) throws Exception {
    long rows = rig.targetAuditRows();
    for (int same = 0; same < 10; ) {
      Thread.sleep(100);
      long now = rig.targetAuditRows();
      same = now == rows ? same + 1 : 0;
      rows = now;
    }
    return rows;
  }

  /** Waits until the writer has written every transaction it may. */
  private static void awaitWritten(FaultRig rig) {
    await("the writer").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
        .until(() -> rig.writer.transactions() >= allowed(rig));
  }

  private static long allowed(FaultRig rig) {
    return ((OutageWorkload) rig.writer).allowed();
  }

  /**
   * Rotates the source's binlog and purges every file before the new one; returns the new one's name. MariaDB keeps
   * a file until its binlog checkpoint has passed (InnoDB flushed) and no dump thread reads it, so the purge is
   * repeated until the oldest file left is the new one.
   */
  private static String purgeBinlogs(FaultRig rig) throws Exception {
    try (Connection c = rig.source.connect(""); Statement s = c.createStatement()) {
      s.execute("FLUSH BINARY LOGS");
      String newest;
      try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
        rs.next();
        newest = rs.getString(1);
      }
      await("the purge of every file before " + newest).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> {
            s.execute("PURGE BINARY LOGS TO '" + newest + "'");
            try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
              rs.next();
              return rs.getString(1).equals(newest);
            }
          });
      return newest;
    }
  }

  private HttpResponse<String> ready(FaultRig rig) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rig.relayPort + "/health/ready"))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> errors(ListAppender<ILoggingEvent> lines) {
    synchronized (lines) { // the appender appends under its own lock
      return lines.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }
}
