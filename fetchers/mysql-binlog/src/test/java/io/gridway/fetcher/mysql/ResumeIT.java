package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Stopping and resuming from a delivered position (by file and offset, or by GTID), starting points, heartbeats. */
class ResumeIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void resumingFromTheLastPositionNeitherRepeatsNorSkips() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("resume");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
    MysqlFetcherConfig config = Fixtures.config(db, database);

    RecordingSink before = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, before)) {
      insert(db, database, 1, 10);
      await().atMost(Duration.ofSeconds(20)).until(() -> before.transactions.size() >= 10);
      assertThat(fetcher.status().position()).isEqualTo(last(before).position());
    }
    SourcePosition.Binlog stoppedAt = (SourcePosition.Binlog) last(before).position();
    insert(db, database, 11, 20); // while no fetcher runs

    RecordingSink byFile = new RecordingSink();
    RecordingSink byGtid = new RecordingSink();
    MysqlBinlogFetcher fileFetcher = Fixtures.fetcher(config);
    MysqlBinlogFetcher gtidFetcher = Fixtures.fetcher(config.withServerId(Fixtures.nextServerId()));
    try (fileFetcher; gtidFetcher) {
      fileFetcher.start(stoppedAt, byFile);
      gtidFetcher.start(new SourcePosition.Binlog("", 0, stoppedAt.gtidSet()), byGtid);
      await().atMost(Duration.ofSeconds(20)).until(() -> byFile.transactions.size() >= 10 && byGtid.transactions.size() >= 10);
      assertThat(ids(byFile.transactions)).containsExactlyElementsOf(range(11, 20));
      assertThat(byFile.transactions.get(0).scn()).isGreaterThan(last(before).scn());
      assertThat(byGtid.transactions).isEqualTo(byFile.transactions);

      // idle: heartbeats move on from the last SCN, never backwards, and stay below the next transaction's
      int seen = byFile.heartbeats.size();
      await().atMost(Duration.ofSeconds(20)).until(() -> byFile.heartbeats.size() >= seen + 2);
      List<Heartbeat> beats = new ArrayList<>(byFile.heartbeats);
      for (int i = 1; i < beats.size(); i++) {
        assertThat(beats.get(i).scn()).isGreaterThanOrEqualTo(beats.get(i - 1).scn());
      }
      assertThat(beats.get(beats.size() - 1).scn()).isGreaterThanOrEqualTo(last(byFile).scn());
      insert(db, database, 21, 21);
      await().atMost(Duration.ofSeconds(20)).until(() -> byFile.transactions.size() >= 11);
      assertThat(last(byFile).scn()).isGreaterThan(beats.get(beats.size() - 1).scn());
      assertThat(byFile.failure).isNull();
      assertThat(byGtid.failure).isNull();
    }

    // from the earliest binlog: everything of this database, the CREATE TABLE included
    RecordingSink all = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config.withStart("earliest"), all)) {
      await().atMost(Duration.ofSeconds(60)).until(() -> all.failure != null || all.transactions.size() >= 22);
      assertThat(all.failure).isNull();
      assertThat(all.transactions.get(0).events().get(0).op()).isEqualTo(Operation.SCHEMA_CHANGE);
      assertThat(ids(all.transactions.subList(1, 22))).containsExactlyElementsOf(range(1, 21));
      assertThat(all.transactions.subList(1, 11)).isEqualTo(before.transactions);
      assertThat(fetcher.status().position()).isEqualTo(last(all).position());
    }
  }

  @Test
  void heartbeatsFlowWhenAllTrafficIsFilteredOut() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("filtered");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
    RecordingSink sink = new RecordingSink();
    MysqlFetcherConfig config = Fixtures.config(db, database).withTables(List.of(database + ".*"), List.of(database + ".t"));
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, sink)) {
      Scn first = null;
      for (int round = 0; round < 3; round++) {
        insert(db, database, round * 100 + 1, round * 100 + 50);
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.heartbeats.size() >= 2);
      first = sink.heartbeats.get(0).scn();
      assertThat(sink.transactions).isEmpty();
      assertThat(sink.heartbeats.get(sink.heartbeats.size() - 1).scn()).isGreaterThanOrEqualTo(first);
      assertThat(fetcher.status().position()).isNull();
    }
  }

  private static void insert(PrivateMariaDb db, String database, int from, int to) throws Exception {
    String[] statements = new String[to - from + 1];
    for (int id = from; id <= to; id++) {
      statements[id - from] = "INSERT INTO t VALUES (" + id + ", " + id * 10 + ")";
    }
    db.execute(database, statements);
  }

  private static Transaction last(RecordingSink sink) {
    return sink.transactions.get(sink.transactions.size() - 1);
  }

  private static List<Long> ids(List<Transaction> transactions) {
    return transactions.stream().flatMap(t -> t.events().stream()).map(e -> (Long) e.after().get(0)).toList();
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id <= to; id++) {
      ids.add(id);
    }
    return ids;
  }
}
