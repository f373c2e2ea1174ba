package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Server restarts, crashes and dropped connections while a writer runs: no gap, no duplicate. */
class ReconnectIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.dedicated();

  @Test
  void restartsCrashesAndDroppedConnectionsLoseAndRepeatNothing() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("restart");
    db.execute(database, "CREATE TABLE t (id BIGINT PRIMARY KEY, payload VARCHAR(100))");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      Writer writer = new Writer(db, database);
      try {
        awaitMoreRows(sink, 300);
        db.restart();
        awaitMoreRows(sink, 300);
        killReplicationConnections(db);
        awaitMoreRows(sink, 300);
        db.kill(); // a crash: crash recovery, then a new binlog file
        db.start();
        awaitMoreRows(sink, 300);
        killReplicationConnections(db);
        awaitMoreRows(sink, 300);
      } finally {
        writer.stop();
      }
      Set<Long> committed = committedIds(db, database);
      await().atMost(Duration.ofSeconds(60)).until(() -> sink.failure != null || sink.rowEvents() >= committed.size());
      assertThat(sink.failure).isNull();
      List<Long> delivered = new ArrayList<>();
      Scn previous = Scn.ZERO;
      for (Transaction t : sink.transactions) {
        assertThat(t.scn()).as("SCNs strictly increase: no window twice").isGreaterThan(previous);
        previous = t.scn();
        for (ChangeEvent e : t.events()) {
          assertThat(e.op()).isEqualTo(Operation.INSERT);
          delivered.add((Long) e.after().get(0));
        }
      }
      assertThat(delivered).doesNotHaveDuplicates();
      assertThat(new HashSet<>(delivered)).isEqualTo(committed);
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
    }
  }

  @Test
  void aServerThatIsDownIsRetriedWithGrowingBackoffUntilItIsBack() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("down");
    db.execute(database, "CREATE TABLE t (id BIGINT PRIMARY KEY, payload VARCHAR(100))");
    String start = Fixtures.endOfBinlog(db);
    db.execute(database, "INSERT INTO t VALUES (1, 'written before the outage')");
    db.stop();
    List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
    Sleeper recording = d -> {
      waits.add(d);
      Thread.sleep(20); // the real backoff would take seconds; the sequence is what is under test
    };
    RecordingSink sink = new RecordingSink();
    MysqlFetcherConfig config = Fixtures.config(db, database).withStart(start).withConnectTimeout(Duration.ofMillis(500))
        .withLimits(Duration.ofSeconds(2), null);
    MysqlBinlogFetcher fetcher = new MysqlBinlogFetcher(config, java.time.Clock.systemUTC(), recording, java.util.Map.of());
    try (fetcher) {
      fetcher.start(null, sink);
      await().atMost(Duration.ofSeconds(30)).until(() -> waits.size() >= 6);
      assertThat(waits.subList(0, 6)).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
          Duration.ofMillis(800), Duration.ofMillis(1600), Duration.ofSeconds(2));
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RECONNECTING);
      assertThat(fetcher.status().detail()).contains("cannot query").contains("retrying in");
      db.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> sink.transactions.size() >= 1);
      assertThat(sink.transactions.get(0).events().get(0).after().get(1)).isEqualTo("written before the outage");
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
      assertThat(sink.failure).isNull();
    }
  }

  private static void awaitMoreRows(RecordingSink sink, int more) {
    int target = sink.rowEvents() + more;
    await().atMost(Duration.ofSeconds(60)).until(() -> {
      if (sink.failure != null) {
        throw new AssertionError("fetcher failed: " + sink.failure.getMessage(), sink.failure);
      }
      return sink.rowEvents() >= target;
    });
  }

  static void killReplicationConnections(PrivateMariaDb db) throws SQLException {
    try (Connection c = db.connect(""); Statement s = c.createStatement()) {
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      assertThat(ids).isNotEmpty();
      for (long id : ids) {
        s.execute("KILL CONNECTION " + id);
      }
    }
  }

  private static Set<Long> committedIds(PrivateMariaDb db, String database) throws SQLException {
    Set<Long> ids = new HashSet<>();
    try (Connection c = db.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM t")) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }
}
