package io.gridway.relay.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Transaction;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 items 5, 8, 9 end to end: a MariaDB workload whose updates move primary keys between the 4
 * key-hash partitions (concurrent writers on the same keys, a table with a UNIQUE secondary key), with
 * TRUNCATE, DROP/CREATE TABLE, ALTER, a DROP of a table the relay never saw and a keyless table created
 * mid-stream. Two relays read it: one with a key-hash policy file, one with no policy (the default
 * routing). Each partition's stream is read on its own, as one consumer would, and replayed into its own
 * in-memory tables: every replay must be self-consistent (an UPDATE/DELETE finds exactly its before
 * image), no key may live in two partitions, every partition must carry every TRUNCATE and DDL at its
 * SCN, and the union of the four replays must equal the source's tables read over SQL.
 */
@Timeout(300)
class KeyRoutingIT {
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final int PARTITIONS = 4;
  private static final int WRITERS = 4;
  private static final int TRANSACTIONS_PER_WRITER = 500;
  private static final int ROWS = 600;
  private static final Set<Integer> RETRYABLE = Set.of(1213, 1205, 1062, 1146); // deadlock, lock wait, duplicate key, table gone

  @TempDir Path dir;

  @Test
  void everyPartitionReplayedAloneKeepsEachKeysOrderThroughKeyMovesAndBarriers() throws Exception {
    String database = DB.createDatabase("keys");
    DB.execute(database,
        "CREATE TABLE acct (id INT PRIMARY KEY, v INT NOT NULL, note VARCHAR(40))",
        "CREATE TABLE uq (id INT PRIMARY KEY, code VARCHAR(20) NOT NULL UNIQUE, v INT NOT NULL)",
        "CREATE TABLE churn (id INT PRIMARY KEY, v INT NOT NULL)");
    String start = Db.endOfBinlog(DB);
    Path policy = dir.resolve("keys.yaml");
    Db.replace(policy, "name: keys\nversion: 1\nrules:\n  - name: by-key\n    partition: {key-hash: " + PARTITIONS + "}\n");
    String buffer = "buffer:\n  capacity: 64MiB\n  maxWindow: 4MiB\n";
    try (Relay withPolicy = relay(database, start, buffer + "policy:\n  files: [" + policy + "]\n");
        Relay byDefault = relay(database, start, buffer)) {
      seed(database);
      AtomicInteger progress = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
      List<Future<Integer>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        writers.add(pool.submit(() -> write(database, progress)));
      }
      Future<?> ddl = pool.submit(() -> {
        ddl(database, progress);
        return null;
      });
      int moves = 0;
      for (Future<Integer> writer : writers) {
        moves += writer.get();
      }
      ddl.get();
      pool.shutdown();
      DB.execute(database, "CREATE TABLE done (x INT)"); // a barrier too: every partition's stream ends with it

      List<List<ChangeEvent>> streams = read(withPolicy, database);
      List<List<ChangeEvent>> defaults = read(byDefault, database);
      for (int p = 0; p < PARTITIONS; p++) {
        assertThat(summary(defaults.get(p))).as("partition %d without a policy = with a key-hash policy", p)
            .containsExactlyElementsOf(summary(streams.get(p)));
      }

      // every partition carries every TRUNCATE and DDL, at the same SCN
      List<String> barriers = barriers(streams.get(0));
      assertThat(barriers).anyMatch(b -> b.contains("TRUNCATE churn")).anyMatch(b -> b.contains("DROP TABLE `churn`"))
          .anyMatch(b -> b.contains("CREATE TABLE nokey")).anyMatch(b -> b.contains("ALTER TABLE acct"))
          .anyMatch(b -> b.contains("never_seen")).anyMatch(b -> b.contains("CREATE TABLE done"));
      for (int p = 1; p < PARTITIONS; p++) {
        assertThat(barriers(streams.get(p))).as("barriers of partition %d", p).containsExactlyElementsOf(barriers);
      }

      // each partition replayed alone; keys never in two partitions; union = source
      Map<String, Map<Object, Map<String, Object>>> union = new HashMap<>();
      List<Map<String, Object>> keylessUnion = new ArrayList<>();
      Set<Integer> keylessPartitions = new HashSet<>();
      Map<String, Integer> home = new HashMap<>();
      int splits = 0;
      for (int p = 0; p < PARTITIONS; p++) {
        Replica replica = new Replica(p, home);
        for (ChangeEvent e : streams.get(p)) {
          replica.apply(e);
        }
        for (var table : replica.keyed.entrySet()) {
          for (var row : table.getValue().entrySet()) {
            assertThat(union.computeIfAbsent(table.getKey(), t -> new HashMap<>()).put(row.getKey(), row.getValue())).isNull();
          }
        }
        if (replica.keylessEvents > 0) {
          keylessPartitions.add(p);
        }
        keylessUnion.addAll(replica.keyless);
      }
      splits = splits(streams);
      assertThat(keylessPartitions).as("partitions holding keyless rows").hasSize(1);
      for (String table : List.of("acct", "uq", "churn")) {
        Map<Object, Map<String, Object>> source = sqlRows(database, table);
        Map<Object, Map<String, Object>> replayed = union.getOrDefault(table, Map.of());
        for (Map.Entry<Object, Map<String, Object>> row : replayed.entrySet()) {
          Map<String, Object> sourceRow = source.get(row.getKey());
          if (sourceRow != null) {
            sourceRow.keySet().forEach(column -> row.getValue().putIfAbsent(column, null)); // untouched since ADD COLUMN: NULL
          }
        }
        assertThat(replayed).as(table).isEqualTo(source);
      }
      assertThat(keylessUnion).containsExactlyInAnyOrderElementsOf(sqlKeyless(database));
      assertThat(moves).as("key-moving updates committed").isGreaterThan(1500);
      assertThat(splits).as("updates split across partitions").isGreaterThan(750);
      System.out.printf(Locale.ROOT, "KeyRoutingIT: %d key-moving updates committed, %d split across partitions, %d events per partition %s%n",
          moves, splits, streams.stream().mapToInt(List::size).sum(), streams.stream().map(List::size).toList());
      assertThat(Http.json(withPolicy.port(), "/v1/sources")).doesNotContain("FAILED");
    }
  }

  private Relay relay(String database, String start, String more) throws InterruptedException {
    RelayConfig config = RelayConfig.parse(Db.relayYaml(DB, dir, "s1", start, database + ".*", more), "test");
    Relay relay = new Relay(config, Clock.systemUTC());
    relay.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(relay.port(), "/health").statusCode() == 200);
    return relay;
  }

  private static void seed(String database) throws SQLException {
    try (Connection c = DB.connect(database)) {
      c.setAutoCommit(false);
      try (PreparedStatement acct = c.prepareStatement("INSERT INTO acct VALUES (?, 0, ?)");
          PreparedStatement uq = c.prepareStatement("INSERT INTO uq VALUES (?, ?, 0)");
          PreparedStatement churn = c.prepareStatement("INSERT INTO churn VALUES (?, 0)")) {
        for (int id = 1; id <= ROWS; id++) {
          acct.setInt(1, id);
          acct.setString(2, "n" + id);
          acct.addBatch();
          if (id <= 200) {
            uq.setInt(1, id);
            uq.setString(2, "c" + id);
            uq.addBatch();
            churn.setInt(1, id);
            churn.addBatch();
          }
        }
        acct.executeBatch();
        uq.executeBatch();
        churn.executeBatch();
      }
      c.commit();
    }
  }

  /** Random transactions of 1-3 statements, most of them key moves, on keys other writers touch too; returns the moves committed. */
  private static int write(String database, AtomicInteger progress) throws SQLException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int moves = 0;
    try (Connection c = DB.connect(database)) {
      c.setAutoCommit(false);
      for (int t = 0; t < TRANSACTIONS_PER_WRITER; t++) {
        int movesHere = 0;
        try (Statement s = c.createStatement()) {
          // an INSERT or DELETE is a transaction of its own: a DELETE+INSERT pair of one SCN and table is then a split
          int count = 1 + random.nextInt(3);
          boolean single = count == 1;
          for (int n = count; n > 0; n--) {
            // Row k lives at id k or k + 1000; a move flips it, so every move finds its row (unless deleted) and a free key,
            // and the writers contend for the same few hundred rows.
            int k = 1 + random.nextInt(ROWS);
            String flip = "id = IF(id > 1000, id - 1000, id + 1000)";
            int dice = random.nextInt(20);
            String sql;
            if (dice < 9) {
              sql = "UPDATE acct SET " + flip + ", v = v + 1 WHERE id IN (" + k + ", " + (k + 1000) + ")";
            } else if (dice < 11) {
              sql = "UPDATE acct SET v = v + 1, note = 'w" + t + "' WHERE id IN (" + k + ", " + (k + 1000) + ")";
            } else if (dice < 12 && single) {
              sql = "INSERT IGNORE INTO acct (id, v, note) VALUES (" + k + ", 0, 'new')";
            } else if (dice < 13 && single) {
              sql = "DELETE FROM acct WHERE id IN (" + k + ", " + (k + 1000) + ")";
            } else if (dice < 13) {
              sql = "UPDATE acct SET v = v - 1 WHERE id = " + k;
            } else if (dice < 15) {
              int u = 1 + k % 200;
              sql = "UPDATE uq SET " + flip + ", v = v + 1 WHERE id IN (" + u + ", " + (u + 1000) + ")";
            } else if (dice < 16) {
              sql = "UPDATE uq SET code = 'c" + random.nextInt(400) + "' WHERE id = " + (1 + k % 200); // the unique column changes
            } else if (dice < 18) {
              int r = 1 + k % 400;
              sql = "UPDATE churn SET " + flip + ", v = v + 1 WHERE id IN (" + r + ", " + (r + 1000) + ")";
            } else if (single) {
              sql = "INSERT IGNORE INTO churn VALUES (" + (1 + k % 400) + ", 0)";
            } else {
              sql = "UPDATE churn SET v = v + 1 WHERE id = " + (1 + k % 400);
            }
            int changed = s.executeUpdate(sql);
            if (sql.contains("IF(id > 1000") && changed > 0) {
              movesHere++;
            }
          }
          c.commit();
          moves += movesHere;
        } catch (SQLException e) {
          if (!RETRYABLE.contains(e.getErrorCode())) {
            throw e;
          }
          c.rollback();
        }
        progress.incrementAndGet();
      }
    }
    return moves;
  }

  /** The schema changes, TRUNCATE and keyless rows, each at a point of the writers' progress. */
  private static void ddl(String database, AtomicInteger progress) throws Exception {
    int total = WRITERS * TRANSACTIONS_PER_WRITER;
    at(progress, total / 10);
    DB.execute(database, "CREATE TABLE nokey (a INT, b VARCHAR(20))");
    for (int i = 0; i < 60; i++) {
      DB.execute(database, "INSERT INTO nokey VALUES (" + (i % 20) + ", 'k" + (i % 20) + "')"); // duplicate rows
    }
    at(progress, total / 4);
    DB.execute(database, "TRUNCATE churn");
    at(progress, total * 2 / 5);
    DB.execute(database, "ALTER TABLE acct ADD COLUMN extra INT");
    DB.execute(database, "UPDATE nokey SET b = CONCAT(b, 'x') WHERE a < 10", "DELETE FROM nokey WHERE a = 3 LIMIT 1");
    at(progress, total * 11 / 20);
    DB.execute(database, "DROP TABLE churn", "CREATE TABLE churn (id INT PRIMARY KEY, v INT NOT NULL)");
    for (int i = 1; i <= 50; i++) {
      DB.execute(database, "INSERT IGNORE INTO churn VALUES (" + (i * 7) + ", 1)");
    }
    at(progress, total * 7 / 10);
    DB.execute(database, "DROP TABLE IF EXISTS never_seen"); // the relay never saw it: a keyless placeholder schema
    DB.execute(database, "UPDATE acct SET extra = id WHERE id < 1000");
    at(progress, total * 17 / 20);
    DB.execute(database, "INSERT INTO nokey VALUES (99, 'late'), (99, 'late')");
  }

  private static void at(AtomicInteger progress, int transactions) {
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20)).until(() -> progress.get() >= transactions);
  }

  /** Each partition's events, read with its own long-polls until its stream carries the final CREATE TABLE done. */
  private static List<List<ChangeEvent>> read(Relay relay, String database) throws InterruptedException {
    List<List<ChangeEvent>> streams = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      Events reader = new Events(relay.port(), "s1", 0, "&partitions=" + p);
      reader.pollUntil(() -> reader.windows().stream().flatMap(w -> w.events().stream())
          .anyMatch(e -> e.op() == Operation.SCHEMA_CHANGE && e.table().equals("done")), Duration.ofSeconds(120));
      List<ChangeEvent> events = new ArrayList<>();
      for (Transaction w : reader.windows()) {
        for (ChangeEvent e : w.events()) {
          assertThat(e.partition()).isEqualTo(p);
          assertThat(e.database()).isEqualTo(database);
          events.add(e);
        }
      }
      streams.add(events);
    }
    return streams;
  }

  private static List<String> summary(List<ChangeEvent> events) {
    return events.stream().map(e -> e.scn() + " " + e.op() + " " + e.table() + " " + e.before() + " " + e.after() + " " + e.ddl()).toList();
  }

  private static List<String> barriers(List<ChangeEvent> events) {
    return events.stream().filter(e -> e.op() == Operation.TRUNCATE || e.op() == Operation.SCHEMA_CHANGE)
        .map(e -> e.scn() + " " + e.op() + " " + e.table() + " " + (e.ddl() == null ? "TRUNCATE " + e.table() : e.ddl())).toList();
  }

  /** DELETE+INSERT pairs of one SCN in different partitions that an UPDATE became. */
  private static int splits(List<List<ChangeEvent>> streams) {
    Map<String, Integer> deletes = new HashMap<>();
    for (List<ChangeEvent> stream : streams) {
      for (ChangeEvent e : stream) {
        if (e.op() == Operation.DELETE && !e.table().equals("nokey")) {
          deletes.merge(e.scn() + "/" + e.table(), 1, Integer::sum);
        }
      }
    }
    int splits = 0;
    for (List<ChangeEvent> stream : streams) {
      for (ChangeEvent e : stream) {
        if (e.op() == Operation.INSERT && deletes.containsKey(e.scn() + "/" + e.table())) {
          splits++; // writers insert and delete only in transactions of one statement: the pair is a split
        }
      }
    }
    return splits;
  }

  /** One partition's target, replayed from its stream alone, strict about every before image. */
  private static final class Replica {
    final int partition;
    final Map<String, Integer> home;
    final Map<String, Map<Object, Map<String, Object>>> keyed = new HashMap<>();
    final List<Map<String, Object>> keyless = new ArrayList<>();
    int keylessEvents;

    Replica(int partition, Map<String, Integer> home) {
      this.partition = partition;
      this.home = home;
    }

    void apply(ChangeEvent e) {
      String table = e.table();
      if (e.op() == Operation.TRUNCATE || e.op() == Operation.SCHEMA_CHANGE) {
        String ddl = e.ddl() == null ? "" : e.ddl().toUpperCase(Locale.ROOT);
        if (e.op() == Operation.TRUNCATE || ddl.startsWith("DROP TABLE") || ddl.startsWith("CREATE TABLE")) {
          keyed.remove(table);
          if (table.equals("nokey")) {
            keyless.clear();
          }
        }
        return;
      }
      if (!e.schema().hasPrimaryKey()) {
        keylessEvents++;
        if (e.before() != null) {
          Map<String, Object> before = image(e, e.before());
          assertThat(keyless.remove(before)).as("partition %d: keyless %s finds %s", partition, e.op(), before).isTrue();
        }
        if (e.after() != null) {
          keyless.add(image(e, e.after()));
        }
        return;
      }
      Map<Object, Map<String, Object>> rows = keyed.computeIfAbsent(table, t -> new HashMap<>());
      if (e.before() != null) {
        Object key = key(e, e.before());
        Map<String, Object> held = rows.remove(key);
        assertThat(held).as("partition %d: %s of %s key %s at %s finds its row", partition, e.op(), table, key, e.scn()).isNotNull();
        Map<String, Object> before = image(e, e.before());
        for (Map.Entry<String, Object> column : before.entrySet()) {
          assertThat(held.get(column.getKey())).as("partition %d: %s %s key %s column %s", partition, e.op(), table, key, column.getKey())
              .isEqualTo(column.getValue());
        }
      }
      if (e.after() != null) {
        Object key = key(e, e.after());
        assertThat(rows.put(key, image(e, e.after()))).as("partition %d: %s of %s key %s finds its key free", partition, e.op(), table, key)
            .isNull();
        Integer first = home.putIfAbsent(table + "/" + key, partition);
        assertThat(first == null ? partition : first).as("%s key %s stays in one partition", table, key).isEqualTo(partition);
      }
    }

    private static Object key(ChangeEvent e, Row row) {
      return ((Number) row.get(e.schema().keyIndex(0))).longValue();
    }
  }

  private static Map<String, Object> image(ChangeEvent e, Row row) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < row.size(); i++) {
      out.put(e.schema().column(i).name(), normal(row.get(i)));
    }
    return out;
  }

  private static Object normal(Object value) {
    return value instanceof Number n ? (Object) n.longValue() : value == null ? null : value.toString();
  }

  private static Map<Object, Map<String, Object>> sqlRows(String database, String table) throws SQLException {
    Map<Object, Map<String, Object>> rows = new HashMap<>();
    for (Map<String, Object> row : sql(database, "SELECT * FROM " + table)) {
      rows.put(row.get("id"), row);
    }
    return rows;
  }

  private static List<Map<String, Object>> sqlKeyless(String database) throws SQLException {
    return sql(database, "SELECT a, b FROM nokey");
  }

  private static List<Map<String, Object>> sql(String database, String query) throws SQLException {
    List<Map<String, Object>> rows = new ArrayList<>();
    try (Connection c = DB.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
      ResultSetMetaData meta = rs.getMetaData();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.put(meta.getColumnName(i), normal(rs.getObject(i)));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
