package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.relay.position.PositionFile;
import io.gridway.relay.position.PositionState;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The relay with the binlog source, in process, against the shared private MariaDB; asserted over HTTP. */
@Timeout(120)
class MysqlRelayIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();

  @TempDir Path dir;
  private String database;
  private String start;

  @BeforeEach
  void createTables() throws Exception {
    database = DB.createDatabase("relay");
    DB.execute(database,
        "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(50), secret TEXT, qty INT)",
        "CREATE TABLE skipped (id INT PRIMARY KEY, v VARCHAR(20))");
    start = Db.endOfBinlog(DB);
  }

  private Relay relay(String more) throws InterruptedException {
    String buffer = more.contains("buffer:") ? "" : "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n";
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, dir, "s1", start, database + ".*", buffer + more), "test");
    Relay relay = new Relay(config, Clock.systemUTC());
    relay.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
    return relay;
  }

  private void insert(int from, int to, String table) throws Exception {
    try (Connection c = DB.connect(database)) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(table.equals("t")
          ? "INSERT INTO t VALUES (?, ?, ?, ?)" : "INSERT INTO skipped VALUES (?, ?)")) {
        for (int id = from; id < to; id++) {
          ps.setInt(1, id);
          ps.setString(2, "n" + id);
          if (table.equals("t")) {
            ps.setString(3, "s" + id);
            ps.setInt(4, id * 10);
          }
          ps.addBatch();
        }
        ps.executeBatch();
      }
      c.commit();
    }
  }

  @Test
  void heartbeatsMoveThePositionFilePastTrafficTheRelayFiltersOut() throws Exception {
    Path file = dir.resolve("position.json");
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, dir, "s1", start, database + ".t",
        "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\npositionFile: " + file + "\npositionFlush: 50ms\n"), "test");
    try (Relay relay = new Relay(config, Clock.systemUTC())) {
      relay.start();
      insert(1, 2, "t");
      await().atMost(Duration.ofSeconds(30)).until(() -> relay.buffer().windowsPublished() == 1);
      for (int i = 0; i < 20; i++) {
        insert(100 + i * 10, 110 + i * 10, "skipped"); // the fetcher's include list leaves these out
      }
      String[] end = Db.endOfBinlog(DB).split(":");
      // binlog heartbeats (300 ms here) and heartbeats for filtered commits carry the position on
      await().atMost(Duration.ofSeconds(30)).until(() -> {
        PositionState state = new PositionFile(file).read();
        SourcePosition.Binlog at = state == null ? null : (SourcePosition.Binlog) state.last().position();
        return at != null && (at.file().compareTo(end[0]) > 0 || at.file().equals(end[0]) && at.offset() >= Long.parseLong(end[1]));
      });
      assertThat(relay.buffer().windowsPublished()).isEqualTo(1); // nothing of `skipped` was published
    }
  }

  private static Object value(ChangeEvent e, String column) {
    return (e.after() != null ? e.after() : e.before()).get(e.schema().indexOf(column));
  }

  private static List<ChangeEvent> events(List<Transaction> windows) {
    return windows.stream().flatMap(w -> w.events().stream()).toList();
  }

  @Test
  void rowsWrittenToMariaDbArriveAsWindowsWithTheirValues() throws Exception {
    try (Relay relay = relay("")) {
      insert(1, 4, "t");
      insert(4, 5, "t");
      DB.execute(database, "UPDATE t SET qty = 99 WHERE id = 2", "DELETE FROM t WHERE id = 3");
      Events reader = new Events(relay.port(), "s1", 0, "");
      reader.pollUntil(() -> reader.windows().size() >= 4, Duration.ofSeconds(30));

      List<Transaction> windows = reader.windows();
      assertThat(windows).extracting(Transaction::size).containsExactly(3, 1, 1, 1);
      ChangeEvent first = windows.get(0).events().get(0);
      assertThat(first.database()).isEqualTo(database);
      assertThat(first.table()).isEqualTo("t");
      assertThat(value(first, "id")).isEqualTo(1L);
      assertThat(value(first, "name")).isEqualTo("n1");
      assertThat(value(first, "qty")).isEqualTo(10L);
      ChangeEvent update = windows.get(2).events().get(0);
      assertThat(update.op().name()).isEqualTo("UPDATE");
      assertThat(value(update, "qty")).isEqualTo(99L);
      assertThat(windows.get(3).events().get(0).op().name()).isEqualTo("DELETE");
      String sources = Http.json(relay.port(), "/v1/sources");
      assertThat(sources).contains("\"state\":\"RUNNING\"").contains("mariadb-bin");
    }
  }

  @Test
  void subscribersWithDifferentWherePredicatesReceiveExactlyTheirRows() throws Exception {
    try (Relay relay = relay("")) {
      insert(1, 21, "t");
      insert(1, 6, "skipped");
      DB.execute(database, "UPDATE t SET qty = 5 WHERE id = 20", "DELETE FROM t WHERE id = 19");
      String big = "&where=" + java.net.URLEncoder.encode("table == \"t\" && row.qty >= 150", java.nio.charset.StandardCharsets.UTF_8);
      String named = "&where=" + java.net.URLEncoder.encode("row.id == 3 || row.id == 4",
          java.nio.charset.StandardCharsets.UTF_8);
      Events all = new Events(relay.port(), "s1", 0, "");
      all.pollUntil(() -> events(all.windows()).size() >= 27, Duration.ofSeconds(30));
      Events first = new Events(relay.port(), "s1", 0, big);
      Events second = new Events(relay.port(), "s1", 0, named);
      first.pollUntil(() -> first.since() >= all.since(), Duration.ofSeconds(30));
      second.pollUntil(() -> second.since() >= all.since(), Duration.ofSeconds(30));
      // qty = id * 10: ids 15..20 inserted; 19 deleted (its before image has qty 190); 20 updated to 5
      assertThat(ids(first.windows())).containsExactly(15, 16, 17, 18, 19, 20, 19);
      assertThat(events(first.windows()).get(6).op().name()).isEqualTo("DELETE");
      assertThat(events(second.windows())).extracting(e -> e.table() + ((Number) value(e, "id")).intValue())
          .containsExactly("t3", "t4", "skipped3", "skipped4");

      var bad = Http.get(relay.port(), "/v1/sources/s1/events?since=0&waitMs=0&where="
          + java.net.URLEncoder.encode("row.qty >", java.nio.charset.StandardCharsets.UTF_8));
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("bad-parameter").contains("where: is not a valid predicate");
    }
  }

  @Test
  void connectionDropIsInvisibleAtTheHttpLevel() throws Exception {
    try (Relay relay = relay("")) {
      Events reader = new Events(relay.port(), "s1", 0, "");
      insert(1, 11, "t");
      reader.pollUntil(() -> reader.windows().size() >= 1, Duration.ofSeconds(30));
      killBinlogDumpThreads();
      for (int i = 0; i < 10; i++) {
        insert(100 + i * 10, 110 + i * 10, "t");
      }
      reader.pollUntil(() -> ids(reader.windows()).size() >= 110, Duration.ofSeconds(60));
      List<Integer> ids = ids(reader.windows());
      assertThat(ids).doesNotHaveDuplicates().hasSize(110);
    }
  }

  private static List<Integer> ids(List<Transaction> windows) {
    return events(windows).stream().map(e -> ((Number) value(e, "id")).intValue()).toList();
  }

  private void killBinlogDumpThreads() throws Exception {
    try (Connection c = DB.connect(""); Statement s = c.createStatement();
        var rs = s.executeQuery("SELECT id FROM information_schema.processlist WHERE command LIKE 'Binlog Dump%' AND user = '"
            + DB.replicationUser() + "'")) {
      List<Long> ids = new java.util.ArrayList<>();
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
      for (long id : ids) {
        try (Statement k = c.createStatement()) {
          k.execute("KILL CONNECTION " + id);
        } catch (java.sql.SQLException gone) {
          // already ended
        }
      }
    }
  }

  @Test
  void fetchPolicyDropsMasksAndPartitionsAndReloadsAtAWindowBoundary() throws Exception {
    Path policy = dir.resolve("fetch.yaml");
    Db.replace(policy, policyText(1, "***"));
    try (Relay relay = relay("policy:\n  files: [" + policy + "]\n")) {
      insert(1, 41, "t");
      insert(1, 11, "skipped");
      insert(41, 42, "t");
      Events all = new Events(relay.port(), "s1", 0, "");
      all.pollUntil(() -> events(all.windows()).size() >= 41, Duration.ofSeconds(30));
      List<ChangeEvent> events = events(all.windows());
      assertThat(events).hasSize(41).allMatch(e -> e.table().equals("t"));
      assertThat(events).allMatch(e -> "***".equals(value(e, "secret")));
      assertThat(events).allMatch(e -> e.partition() >= 0 && e.partition() < 4);
      Map<Integer, List<Integer>> byPartition = events.stream().collect(Collectors.groupingBy(ChangeEvent::partition, TreeMap::new,
          Collectors.mapping(e -> ((Number) value(e, "id")).intValue(), Collectors.toList())));
      assertThat(byPartition.keySet()).hasSizeGreaterThan(1);
      Events zero = new Events(relay.port(), "s1", 0, "&partitions=0");
      zero.pollUntil(() -> zero.since() >= all.since(), Duration.ofSeconds(30));
      assertThat(ids(zero.windows())).containsExactlyElementsOf(byPartition.getOrDefault(0, List.of()));
      assertThat(Http.json(relay.port(), "/v1/sources")).contains("\"version\":1");

      Db.replace(policy, policyText(2, "###"));
      await().atMost(Duration.ofSeconds(20)).until(() -> Http.json(relay.port(), "/v1/sources").contains("\"version\":2"));
      assertThat(Http.get(relay.port(), "/metrics").body()).containsPattern("gridway_policy_version\\{[^}]*\\} 2.0");
      insert(100, 103, "t");
      all.pollUntil(() -> events(all.windows()).size() >= 44, Duration.ofSeconds(30));
      assertThat(events(all.windows()).subList(41, 44)).allMatch(e -> "###".equals(value(e, "secret")));
      // the relay records from which SCN version 2 applied: the first window after the reload
      String since = Long.toUnsignedString(events(all.windows()).get(41).scn().value());
      assertThat(Http.json(relay.port(), "/v1/sources").replaceAll("\\s", ""))
          .contains("{\"sinceScn\":\"" + since + "\",\"policies\":[{\"name\":\"relay-test\",\"version\":2}]}");

      Db.replace(policy, "name: relay-test\nversion: 3\nrules:\n  - name: broken\n    where: row.nope ==\n");
      await().atMost(Duration.ofSeconds(20)).until(() -> Http.json(relay.port(), "/v1/sources").contains("policyReloadError\":\""));
      assertThat(Http.get(relay.port(), "/metrics").body()).containsPattern("gridway_policy_reload_rejected\\{[^}]*\\} 1.0");
      insert(200, 201, "t");
      all.pollUntil(() -> events(all.windows()).size() >= 45, Duration.ofSeconds(30));
      assertThat(value(events(all.windows()).get(44), "secret")).isEqualTo("###");
      assertThat(Http.json(relay.port(), "/v1/sources")).contains("\"version\":2");
    }
  }

  private String policyText(int version, String mask) {
    return """
        name: relay-test
        version: %d
        exclude: ['%s.skipped']
        rules:
          - name: mask
            tables: ['%s.t']
            columns:
              mask: {secret: "%s"}
          - name: by-key
            tables: ['%s.*']
            partition: {key-hash: 4}
        """.formatted(version, database, database, mask, database);
  }

  @Test
  void largeTransactionStopsTheSourceUntilTheLimitIsRaisedThenArrivesWhole() throws Exception {
    Path positions = dir.resolve("position.json");
    long since;
    String small = "buffer:\n  capacity: 64MiB\n  maxWindow: 1MiB\npositionFile: " + positions + "\n";
    try (Relay relay = relay(small)) {
      insert(1, 3, "t");
      Events reader = new Events(relay.port(), "s1", 0, "");
      reader.pollUntil(() -> reader.windows().size() >= 1, Duration.ofSeconds(30));
      insertWide(1000, 1600); // ~600 rows of ~2 KB: about 1.2 MB encoded
      await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 503);
      assertThat(Http.get(relay.port(), "/health").body()).contains("buffer.maxWindow").contains("DOWN");
      assertThat(Http.get(relay.port(), "/metrics").body()).containsPattern("gridway_relay_window_too_large_total\\{[^}]*\\} 1.0")
          .containsPattern("gridway_relay_source_stopped\\{[^}]*\\} 1.0");
      assertThat(Http.json(relay.port(), "/v1/sources")).contains("FAILED");
      since = reader.since();
    }
    insert(5000, 5001, "t");
    try (Relay relay = relay("buffer:\n  capacity: 64MiB\n  maxWindow: 8MiB\npositionFile: " + positions + "\n")) {
      Events reader = new Events(relay.port(), "s1", since, "");
      reader.pollUntil(() -> ids(reader.windows()).contains(5000), Duration.ofSeconds(60));
      List<Transaction> windows = reader.windows();
      assertThat(windows).extracting(Transaction::size).containsExactly(600, 1); // the small window was not repeated
      assertThat(Set.copyOf(ids(windows))).hasSize(601);
    }
  }

  private void insertWide(int from, int to) throws Exception {
    String wide = "x".repeat(45);
    try (Connection c = DB.connect(database)) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
        for (int id = from; id < to; id++) {
          ps.setInt(1, id);
          ps.setString(2, wide);
          ps.setString(3, wide.repeat(44));
          ps.setInt(4, id);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      c.commit();
    }
  }
}
