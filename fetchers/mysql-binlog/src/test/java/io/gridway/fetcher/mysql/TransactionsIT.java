package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TransactionsIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void multiTableTransactionArrivesAsOneWindowInStatementOrder() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("txn");
    db.execute(database, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20))", "CREATE TABLE b (id INT PRIMARY KEY, n BIGINT)");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      try (Connection c = db.connect(database); Statement s = c.createStatement()) {
        c.setAutoCommit(false);
        s.execute("INSERT INTO a VALUES (1, 'one')");
        s.execute("INSERT INTO b VALUES (10, 100)");
        s.execute("UPDATE a SET v = 'uno' WHERE id = 1");
        s.execute("DELETE FROM b WHERE id = 10");
        c.commit();
        s.execute("INSERT INTO a VALUES (2, 'rolled back')");
        s.execute("INSERT INTO b VALUES (20, 200)");
        c.rollback();
        s.execute("INSERT INTO a VALUES (3, 'three')");
        c.commit();
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.transactions.size() >= 2);
      assertThat(sink.failure).isNull();
      assertThat(sink.transactions).hasSize(2);
      Transaction first = sink.transactions.get(0);
      assertThat(first.events()).extracting(e -> e.table() + ":" + e.op())
          .containsExactly("a:INSERT", "b:INSERT", "a:UPDATE", "b:DELETE");
      assertThat(first.events().get(2).before()).containsExactly(1L, "one");
      assertThat(first.events().get(2).after()).containsExactly(1L, "uno");
      assertThat(first.events().get(3).before()).containsExactly(10L, 100L);
      assertThat(first.gtid()).matches("0-\\d+-\\d+");
      SourcePosition.Binlog position = (SourcePosition.Binlog) first.position();
      assertThat(first.scn()).isEqualTo(Scn.ofBinlog(position.fileIndex(), position.offset()));
      assertThat(position.gtidSet()).contains(first.gtid());
      Transaction second = sink.transactions.get(1);
      assertThat(second.events()).extracting(e -> e.after().get(1)).containsExactly("three");
      assertThat(second.scn()).isGreaterThan(first.scn());
      assertThat(sink.events(e -> "rolled back".equals(e.after() == null ? null : e.after().get(1)))).isEmpty();
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
    }
  }

  @Test
  void concurrentWritersCommitExactlyTheRowsTheWindowsCarry() throws Exception {
    int writers = Integer.getInteger("it.writers", 8);
    long seconds = Long.getLong("it.writerSeconds", 10);
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("concurrent");
    db.execute(database, "CREATE TABLE t (id BIGINT AUTO_INCREMENT PRIMARY KEY, writer INT NOT NULL, seq INT NOT NULL, pad VARCHAR(64))",
        "CREATE TABLE u (writer INT NOT NULL, seq INT NOT NULL, PRIMARY KEY (writer, seq))");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      AtomicInteger committedRows = new AtomicInteger();
      AtomicInteger committedTransactions = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        futures.add(pool.submit(() -> {
          write(db, database, writer, deadline, committedRows, committedTransactions);
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(seconds + 60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      int expectedRows = Fixtures.count(db, database, "SELECT COUNT(*) FROM t") + Fixtures.count(db, database, "SELECT COUNT(*) FROM u");
      assertThat(expectedRows).isEqualTo(committedRows.get());
      await().atMost(Duration.ofSeconds(60)).until(() -> sink.failure != null || sink.rowEvents() >= expectedRows);
      assertThat(sink.failure).isNull();
      assertThat(sink.rowEvents()).isEqualTo(expectedRows);
      assertThat(sink.transactions).hasSize(committedTransactions.get());
      Scn previous = Scn.ZERO;
      for (Transaction t : sink.transactions) {
        assertThat(t.scn()).isGreaterThan(previous);
        previous = t.scn();
        // each window holds exactly one writer's transaction: one writer, consecutive sequence numbers
        assertThat(t.events().stream().map(e -> e.after().get(e.schema().indexOf("writer"))).distinct()).hasSize(1);
      }
      assertThat(fetcher.status().position()).isEqualTo(sink.transactions.get(sink.transactions.size() - 1).position());
    }
  }

  private static void write(PrivateMariaDb db, String database, int writer, long deadline, AtomicInteger rows,
      AtomicInteger transactions) throws SQLException {
    try (Connection c = db.connect(database);
        PreparedStatement t = c.prepareStatement("INSERT INTO t (writer, seq, pad) VALUES (?, ?, ?)");
        PreparedStatement u = c.prepareStatement("INSERT INTO u (writer, seq) VALUES (?, ?)")) {
      c.setAutoCommit(false);
      int seq = 0;
      while (System.nanoTime() < deadline) {
        int n = 1 + ThreadLocalRandom.current().nextInt(4);
        for (int i = 0; i < n; i++) {
          seq++;
          t.setInt(1, writer);
          t.setInt(2, seq);
          t.setString(3, "w" + writer + "-" + seq);
          t.executeUpdate();
          u.setInt(1, writer);
          u.setInt(2, seq);
          u.executeUpdate();
        }
        if (ThreadLocalRandom.current().nextInt(10) == 0) {
          c.rollback(); // never arrives
          seq -= n;
        } else {
          c.commit();
          rows.addAndGet(2 * n);
          transactions.incrementAndGet();
        }
      }
    }
  }

  @Test
  void statementsOutsideTransactionsAreWindowsOfTheirOwn() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("single");
    db.execute(database, "CREATE TABLE m (id INT PRIMARY KEY) ENGINE=MyISAM");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      db.execute(database, "INSERT INTO m VALUES (1), (2)", "TRUNCATE TABLE m", "INSERT INTO m VALUES (3)");
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.transactions.size() >= 3);
      assertThat(sink.transactions).extracting(t -> t.events().stream().map(ChangeEvent::op).toList())
          .containsExactly(List.of(Operation.INSERT, Operation.INSERT), List.of(Operation.TRUNCATE), List.of(Operation.INSERT));
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
    }
  }
}
