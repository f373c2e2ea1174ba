package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each misconfiguration stops the fetcher with a message that says what to change. */
class MisconfigurationIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.dedicated();

  @Test
  void statementBinlogFormatIsRefused() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    db.execute("", "SET GLOBAL binlog_format = 'STATEMENT'");
    try {
      assertThat(failure(config(db))).contains("binlog_format is STATEMENT").contains("SET GLOBAL binlog_format=ROW");
    } finally {
      db.execute("", "SET GLOBAL binlog_format = 'ROW'");
    }
  }

  @Test
  void minimalRowImageIsRefused() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    db.execute("", "SET GLOBAL binlog_row_image = 'MINIMAL'");
    try {
      assertThat(failure(config(db))).contains("binlog_row_image is MINIMAL").contains("SET GLOBAL binlog_row_image=FULL");
    } finally {
      db.execute("", "SET GLOBAL binlog_row_image = 'FULL'");
    }
  }

  @Test
  void missingReplicationSlaveIsNamed() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    db.execute("", "CREATE USER 'noslave'@'%' IDENTIFIED BY 'pw1'", "GRANT REPLICATION CLIENT, SELECT ON *.* TO 'noslave'@'%'");
    String message = failure(config(db).withUser("noslave", Fixtures.passwordFile("pw1")));
    assertThat(message).contains("user 'noslave' lacks the REPLICATION SLAVE privilege").contains("GRANT REPLICATION SLAVE");
  }

  @Test
  void missingReplicationClientIsNamed() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    db.execute("", "CREATE USER 'noclient'@'%' IDENTIFIED BY 'pw2'", "GRANT REPLICATION SLAVE, SELECT ON *.* TO 'noclient'@'%'");
    String message = failure(config(db).withUser("noclient", Fixtures.passwordFile("pw2")));
    assertThat(message).contains("user 'noclient' lacks the REPLICATION CLIENT").contains("GRANT REPLICATION SLAVE, REPLICATION CLIENT");
  }

  @Test
  void wrongPasswordIsAccessDenied() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String message = failure(config(db).withUser(db.replicationUser(), Fixtures.passwordFile("not-the-password")));
    assertThat(message).contains("access denied for user '" + db.replicationUser() + "'").contains("passwordFile");
  }

  @Test
  void purgedPositionNamesTheFileAndTheOldestAvailable() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String oldFile = Fixtures.endOfBinlog(db).split(":")[0];
    String gtid = gtidNow(db);
    db.execute("", "FLUSH BINARY LOGS", "FLUSH BINARY LOGS");
    String newest = Fixtures.endOfBinlog(db).split(":")[0];
    db.execute("", "PURGE BINARY LOGS TO '" + newest + "'");

    String byFile = failure(config(db).withStart(oldFile + ":4"));
    assertThat(byFile).contains(oldFile + " has been purged").contains("the oldest binlog file available is " + newest);

    RecordingSink sink = new RecordingSink();
    MysqlBinlogFetcher fetcher = Fixtures.fetcher(config(db));
    fetcher.start(new SourcePosition.Binlog("", 0, previous(gtid)), sink);
    await().atMost(Duration.ofSeconds(30)).until(() -> sink.failure != null);
    fetcher.close();
    assertThat(sink.failure.getMessage()).contains("GTID position " + previous(gtid) + " is no longer on")
        .contains("the oldest binlog file available is " + newest);
  }

  @Test
  void serverIdOfTheServerItselfIsRefused() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    assertThat(failure(config(db).withServerId(db.serverId())))
        .contains("serverId " + db.serverId() + " is the server_id of").contains("give the fetcher a serverId");
  }

  @Test
  void aSecondReplicaWithTheSameServerIdStopsTheFirstWithAClearMessage() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    MysqlFetcherConfig config = config(db);
    RecordingSink first = new RecordingSink();
    RecordingSink second = new RecordingSink();
    try (MysqlBinlogFetcher a = Fixtures.started(config, first); MysqlBinlogFetcher b = Fixtures.started(config, second)) {
      await().atMost(Duration.ofSeconds(30)).until(() -> first.failure != null);
      assertThat(first.failure.getMessage()).contains("serverId " + config.serverId() + " clashes with another replica")
          .contains("give every fetcher and replica of this server its own serverId");
      assertThat(a.status().state()).isEqualTo(FetcherStatus.State.FAILED);
      assertThat(b.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
      assertThat(second.failure).isNull();
    }
  }

  @Test
  void statementBasedAndMinimalImageEventsMidStreamStopTheFetcher() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("midstream");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config(db), sink)) {
      db.execute(database, "SET SESSION binlog_format = 'STATEMENT'", "INSERT INTO t VALUES (1, 1)");
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null);
      assertThat(sink.failure.getMessage()).contains("statement-based event").contains("binlog_format is not ROW");
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.FAILED);
    }
    RecordingSink second = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config(db), second)) {
      db.execute(database, "SET SESSION binlog_row_image = 'MINIMAL'", "UPDATE t SET v = 2 WHERE id = 1");
      await().atMost(Duration.ofSeconds(20)).until(() -> second.failure != null);
      assertThat(second.failure.getMessage()).contains("binlog_row_image is not FULL").contains("SET GLOBAL binlog_row_image=FULL");
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.FAILED);
    }
  }

  private static MysqlFetcherConfig config(PrivateMariaDb db) {
    return Fixtures.config(db, "midstream_1").withConnectTimeout(Duration.ofSeconds(2));
  }

  /** Starts a fetcher that must fail, and returns its message. */
  private static String failure(MysqlFetcherConfig config) {
    RecordingSink sink = new RecordingSink();
    MysqlBinlogFetcher fetcher = Fixtures.fetcher(config);
    fetcher.start(null, sink);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> sink.failure != null);
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.FAILED);
      assertThat(fetcher.status().detail()).isEqualTo(sink.failure.getMessage());
      return sink.failure.getMessage();
    } finally {
      fetcher.close();
    }
  }

  private static String gtidNow(PrivateMariaDb db) throws Exception {
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@gtid_binlog_pos")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The GTID position one transaction before {@code gtid} (d-s-n → d-s-(n-1)). */
  private static String previous(String gtid) {
    int dash = gtid.lastIndexOf('-');
    return gtid.substring(0, dash + 1) + (Long.parseLong(gtid.substring(dash + 1)) - 1);
  }
}
