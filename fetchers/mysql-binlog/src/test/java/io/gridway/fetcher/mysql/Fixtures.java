package io.gridway.fetcher.mysql;

import static org.awaitility.Awaitility.await;

import io.gridway.core.fetch.FetcherStatus;
import io.gridway.testkit.PrivateMariaDb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Shared set-up of the fetcher integration tests. */
final class Fixtures {
  private static final AtomicLong SERVER_IDS = new AtomicLong(5000);

  private Fixtures() {}

  static long nextServerId() {
    return SERVER_IDS.incrementAndGet();
  }

  /** A config for the replication user of {@code db}, capturing {@code database.*}, with quick heartbeats and timeouts. */
  static MysqlFetcherConfig config(PrivateMariaDb db, String database) {
    return MysqlFetcherConfig.of("test", db.host(), db.port(), db.replicationUser(), passwordFile(db.replicationPassword()), nextServerId())
        .withTables(List.of(database + ".*"), List.of())
        .withHeartbeatInterval(Duration.ofMillis(500))
        .withLimits(Duration.ofMillis(500), null);
  }

  static Path passwordFile(String password) {
    try {
      Path file = Files.createTempFile("gridway-pw", ".txt");
      file.toFile().deleteOnExit();
      Files.writeString(file, password + "\n");
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static MysqlBinlogFetcher fetcher(MysqlFetcherConfig config) {
    return new MysqlBinlogFetcher(config, Clock.systemUTC(), Sleeper.SYSTEM, Map.of());
  }

  /** Starts a fetcher and waits until it reads the binlog. */
  static MysqlBinlogFetcher started(MysqlFetcherConfig config, RecordingSink sink) {
    MysqlBinlogFetcher fetcher = fetcher(config);
    fetcher.start(null, sink);
    awaitRunning(fetcher, sink);
    return fetcher;
  }

  static void awaitRunning(MysqlBinlogFetcher fetcher, RecordingSink sink) {
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      if (sink.failure != null) {
        throw new AssertionError("fetcher failed: " + sink.failure.getMessage(), sink.failure);
      }
      return fetcher.status().state() == FetcherStatus.State.RUNNING;
    });
  }

  /** {@code file:offset} of the server's binlog end now. */
  static String endOfBinlog(PrivateMariaDb db) throws SQLException {
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      return rs.getString(1) + ":" + rs.getLong(2);
    }
  }

  static int count(PrivateMariaDb db, String database, String sql) throws SQLException {
    try (Connection c = db.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
