package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.testkit.FaultProxy;
import io.gridway.testkit.GridwayLogs;
import io.gridway.testkit.MariaDbGtidPair;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code scn: gtid} with two hosts follows a MariaDB primary switch: a workload on the primary while the fetcher
 * reads, the primary killed (-9), the replica promoted and the workload going on there. Every transaction arrives
 * once, SCNs keep increasing with the GTID sequence, the rows replayed from the events equal the new primary's, and
 * a second fetcher (a second relay replica) that reads the same history from the new primary alone assigns the
 * same SCNs and positions.
 */
@Timeout(300)
class PrimarySwitchIT {
  private static final int BEFORE_SWITCH = 300;
  private static final int AFTER_SWITCH = 300;
  private static final int STALL_AT = 20;
  /**
   * Rows of ~8 KB: the load before the switch (~7 MB of binlog) is more than the fetcher's socket buffer holds
   * (1 MiB asked), so when the primary dies (and its connections are reset) the fetcher has not received all of
   * it and must read the rest from the promoted replica.
   */
  private static final int PAD = 8_000;
  private static final String TABLE = "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT NOT NULL, note VARCHAR(40),"
      + " pad TEXT)";

  private MariaDbGtidPair pair;

  @BeforeEach
  void startPair() {
    pair = MariaDbGtidPair.start();
  }

  @AfterEach
  void closePair() {
    if (pair != null) {
      pair.close();
    }
  }

  @Test
  void transactionsAcrossAPrimarySwitchArriveOnceWithIncreasingGtidScns() throws Exception {
    PrivateMariaDb primary = pair.primary();
    PrivateMariaDb replica = pair.replica();
    String database = primary.createDatabase("switch");
    primary.execute(database, TABLE);
    pair.awaitReplicaCaughtUp();
    String start = MariaDbGtidPair.gtidBinlogPos(primary);
    // the fetcher reaches the primary through a proxy, to cut what is in flight when the primary dies
    FaultProxy toPrimary = FaultProxy.start(primary.host(), primary.port());
    MysqlFetcherConfig config = Fixtures.config(primary, database)
        .withHosts(List.of(toPrimary.host() + ":" + toPrimary.port(), replica.host() + ":" + replica.port()), 0)
        .withConnectTimeout(Duration.ofSeconds(2))
        .withStart("gtid:" + start);
    RecordingSink across = new RecordingSink();
    CountDownLatch switched = new CountDownLatch(1);
    // the fetcher stalls (back-pressure) after STALL_AT transactions until the switch is done: the primary dies while
    // it is in the middle of the history, with more of it in its socket
    TransactionSink stalling = new TransactionSink() {
      @Override
      public void accept(Transaction transaction) throws InterruptedException {
        if (across.transactions.size() == STALL_AT) {
          switched.await();
        }
        across.accept(transaction);
      }

      @Override
      public void heartbeat(Heartbeat heartbeat) {
        across.heartbeat(heartbeat);
      }

      @Override
      public void failed(FetcherException error) {
        across.failed(error);
      }
    };
    try (toPrimary; GridwayLogs logs = GridwayLogs.atDebug(); MysqlBinlogFetcher fetcher = Fixtures.fetcher(config)) {
      fetcher.start(null, stalling);
      Fixtures.awaitRunning(fetcher, across);
      // the fetcher reads while the load runs; the replica has all of it before the primary dies, as a
      // semi-synchronous setup would guarantee (a promoted replica that lacks transactions already published is
      // refused: aPromotedReplicaThatLacksPublishedTransactionsStopsTheFetcher)
      CompletableFuture<Void> load = CompletableFuture.runAsync(() -> write(primary, database, 1, BEFORE_SWITCH));
      load.get();
      pair.awaitReplicaCaughtUp();
      await().atMost(Duration.ofSeconds(60)).until(() -> across.transactions.size() == STALL_AT);
      primary.kill();
      toPrimary.resetAll(); // what the dead primary had sent but the fetcher had not read is gone with it
      pair.promoteReplica();
      switched.countDown();
      CompletableFuture<Void> more = CompletableFuture.runAsync(
          () -> write(replica, database, BEFORE_SWITCH + 1, BEFORE_SWITCH + AFTER_SWITCH));
      more.get();
      String end = MariaDbGtidPair.gtidBinlogPos(replica);
      awaitGtid(across, end);

      List<Transaction> read = across.transactions;
      assertThat(read).hasSize(BEFORE_SWITCH + AFTER_SWITCH);
      long first = GtidScns.sequence(0, start) + 1;
      for (int i = 0; i < read.size(); i++) {
        Transaction t = read.get(i);
        long sequence = GtidScns.parse(t.gtid())[2];
        assertThat(sequence).as("GTID of transaction %d: none missing, none twice", i).isEqualTo(first + i);
        assertThat(t.scn()).isEqualTo(Scn.ofSequence(sequence));
      }
      assertThat(read.get(0).gtid()).startsWith("0-" + primary.serverId() + "-");
      assertThat(read.get(read.size() - 1).gtid()).startsWith("0-" + replica.serverId() + "-");
      assertThat(replayed(read)).isEqualTo(rows(replica, database));
      Matcher resumed = Pattern.compile("primary is now " + replica.host() + ":" + replica.port()
          + " \\(read_only=OFF\\), was " + toPrimary.host() + ":" + toPrimary.port() + "; resuming there by GTID 0-"
          + primary.serverId() + "-(\\d+)").matcher(logs.text());
      assertThat(resumed.find()).as("the switch is logged").isTrue();
      // the fetcher had not read all of the old primary's history: the promoted replica gave it the rest
      assertThat(Long.parseLong(resumed.group(1))).isLessThan(first + BEFORE_SWITCH - 1);
      assertThat(fetcher.status().position()).isEqualTo(read.get(read.size() - 1).position());

      // a second relay replica, started after the switch, reads the same history from the new primary's binlog
      // (another server, other file numbering) and assigns the same SCNs and positions
      RecordingSink after = new RecordingSink();
      try (MysqlBinlogFetcher second = Fixtures.started(config.withServerId(Fixtures.nextServerId()), after)) {
        awaitGtid(after, end);
        assertThat(after.transactions).extracting(Transaction::scn).containsExactlyElementsOf(
            read.stream().map(Transaction::scn).toList());
        assertThat(after.transactions).extracting(Transaction::position).containsExactlyElementsOf(
            read.stream().map(Transaction::position).toList());
        // the same changes; not the same commit times: a replica stamps the commit events it logs itself, so a
        // transaction read from its binlog may carry a time up to a second later (docs/scn.md §2)
        assertThat(after.transactions).extracting(PrimarySwitchIT::changes).containsExactlyElementsOf(
            read.stream().map(PrimarySwitchIT::changes).toList());
        assertThat(second.status().position()).isEqualTo(fetcher.status().position());
      }
      assertThat(across.failure).isNull();
    }
  }

  @Test
  void aPromotedReplicaThatLacksPublishedTransactionsStopsTheFetcher() throws Exception {
    PrivateMariaDb primary = pair.primary();
    PrivateMariaDb replica = pair.replica();
    String database = primary.createDatabase("behind");
    primary.execute(database, TABLE);
    pair.awaitReplicaCaughtUp();
    replica.execute("", "STOP SLAVE"); // from here the replica misses what the primary commits
    MysqlFetcherConfig config = Fixtures.config(primary, database)
        .withHosts(List.of(primary.host() + ":" + primary.port(), replica.host() + ":" + replica.port()), 0)
        .withConnectTimeout(Duration.ofSeconds(2));
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, sink)) {
      write(primary, database, 1, 20);
      String published = MariaDbGtidPair.gtidBinlogPos(primary);
      awaitGtid(sink, published);
      String replicaHas = MariaDbGtidPair.gtidBinlogPos(replica);
      primary.kill();
      pair.promoteReplica();
      await().atMost(Duration.ofSeconds(60)).until(() -> sink.failure != null);
      assertThat(sink.failure.getMessage())
          .contains(replica.host() + ":" + replica.port() + " has logged GTID domain 0 only up to '" + replicaHas + "'")
          .contains("already read up to " + published)
          .contains("re-seed");
      assertThat(fetcher.status().state()).isEqualTo(io.gridway.core.fetch.FetcherStatus.State.FAILED);
      assertThat(sink.transactions).hasSize(20); // nothing from the other history
    }
  }

  /** Waits until the sink holds the transaction with GTID {@code gtidSet} (one domain); fails on a fetcher failure. */
  private static void awaitGtid(RecordingSink sink, String gtidSet) {
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
      if (sink.failure != null) {
        throw new AssertionError("fetcher failed: " + sink.failure.getMessage(), sink.failure);
      }
      List<Transaction> got = sink.transactions;
      return !got.isEmpty() && got.get(got.size() - 1).gtid().equals(gtidSet);
    });
  }

  /**
   * Transactions {@code from..to} (inclusive), one commit each: insert row i, update an earlier row, and every
   * seventh time delete one.
   */
  private static void write(PrivateMariaDb db, String database, int from, int to) {
    try (Connection c = db.connect(database);
        PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)");
        PreparedStatement update = c.prepareStatement("UPDATE t SET v = v + ?, note = ?, pad = ? WHERE id = ?");
        PreparedStatement delete = c.prepareStatement("DELETE FROM t WHERE id = ?")) {
      c.setAutoCommit(false);
      for (int i = from; i <= to; i++) {
        insert.setLong(1, i);
        insert.setLong(2, i);
        insert.setString(3, "row " + i);
        insert.setString(4, String.valueOf((char) ('a' + i % 26)).repeat(PAD));
        insert.executeUpdate();
        update.setLong(1, i);
        update.setString(2, "updated by " + i);
        update.setString(3, String.valueOf((char) ('A' + i % 26)).repeat(PAD));
        update.setLong(4, Math.max(1, i - 5));
        update.executeUpdate();
        if (i % 7 == 0) {
          delete.setLong(1, i - 3);
          delete.executeUpdate();
        }
        c.commit();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the workload failed on " + db, e);
    }
  }

  /** A transaction's changes without its commit time: schema, operation and images of each event. */
  private static List<String> changes(Transaction t) {
    return t.events().stream().map(e -> e.schema().id() + " " + e.op() + " " + e.before() + " " + e.after()).toList();
  }

  /** The table as the events leave it: id → "v|note|pad". */
  private static Map<Long, String> replayed(List<Transaction> transactions) {
    Map<Long, String> rows = new TreeMap<>();
    for (Transaction t : transactions) {
      for (ChangeEvent e : t.events()) {
        if (e.before() != null) {
          rows.remove((Long) e.before().get(0));
        }
        if (e.after() != null) {
          rows.put((Long) e.after().get(0), e.after().get(1) + "|" + e.after().get(2) + "|" + e.after().get(3));
        }
      }
    }
    return rows;
  }

  private static Map<Long, String> rows(PrivateMariaDb db, String database) throws SQLException {
    Map<Long, String> rows = new TreeMap<>();
    try (Connection c = db.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, v, note, pad FROM t")) {
      while (rs.next()) {
        rows.put(rs.getLong(1), rs.getLong(2) + "|" + rs.getString(3) + "|" + rs.getString(4));
      }
    }
    return rows;
  }
}
