package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.snapshot.Chunk;
import io.gridway.core.snapshot.ChunkRequest;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chunk reader against a MariaDB under load (docs/bootstrap.md §1): chunks read while writers insert, update,
 * delete and move keys, merged with the fetcher's transactions at their snapshot SCNs, give exactly the source's rows;
 * a READ row equals the binlog's INSERT image of the same row, type for type.
 */
class SnapshotChunksIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  private static final int ROWS = 3_000;

  @Test
  @SuppressWarnings("try") // the fetcher runs while the try block reads and writes
  void chunksMergedWithTheLogAtTheirSnapshotScnEqualTheSourceUnderConcurrentChanges() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("snap");
    db.execute(database, "CREATE TABLE k (id INT PRIMARY KEY, v VARCHAR(40), n BIGINT)",
        "CREATE TABLE k2 (a INT, b VARCHAR(10), v INT, PRIMARY KEY (a, b))",
        "CREATE TABLE nokey (n INT, v VARCHAR(20))",
        "INSERT INTO k SELECT seq, CONCAT('v', seq), seq * 7 FROM seq_1_to_" + ROWS,
        "INSERT INTO k2 SELECT seq % 50, CONCAT('b', seq), seq FROM seq_1_to_" + ROWS,
        "INSERT INTO nokey SELECT seq % 100, 'x' FROM seq_1_to_500");
    MysqlFetcherConfig config = Fixtures.config(db, database);
    RecordingSink sink = new RecordingSink();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService writers = Executors.newFixedThreadPool(2);
    List<Chunk> chunks = new ArrayList<>();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, sink);
        Jdbc jdbc = new Jdbc(config, Secret.resolve(config, Map.of()))) {
      List<Future<?>> running = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        running.add(writers.submit(() -> write(db, database, writing)));
      }
      ChunkReader reader = new ChunkReader(jdbc, new InformationSchema(jdbc), new SchemaFactory("test"), 1 << 20);
      assertThat(reader.estimatedRows(database, "k")).isPositive();
      for (String table : List.of("k", "k2", "nokey")) {
        ChunkRequest request = ChunkRequest.first(database, table, 400, table.equals("k2") ? 6_000 : 1 << 20);
        while (true) {
          Chunk chunk = reader.read(request);
          chunks.add(chunk);
          assertThat(chunk.low()).isEqualTo(chunk.high()); // MariaDB: the snapshot's exact position
          if (chunk.done()) {
            break;
          }
          request = request.next(chunk.lastKey());
        }
      }
      writing.set(false);
      for (Future<?> f : running) {
        f.get(60, TimeUnit.SECONDS);
      }
      Scn end = endScn(db);
      await().atMost(Duration.ofSeconds(60)).until(() -> !sink.transactions.isEmpty()
          && sink.transactions.get(sink.transactions.size() - 1).scn().compareTo(end) >= 0);
    } finally {
      writers.shutdownNow();
    }
    assertThat(sink.failure).isNull();
    assertThat(chunks.stream().filter(c -> c.schema().table().equals("k2")).count())
        .as("k2's small byte limit splits it into more chunks than its row limit would").isGreaterThan(ROWS / 400 + 1);
    Replica replica = new Replica();
    for (Object step : merged(sink.transactions, chunks)) {
      if (step instanceof Transaction t) {
        t.events().forEach(replica::apply);
      } else {
        replica.load((Chunk) step);
      }
    }
    for (String table : List.of("k", "k2", "nokey")) {
      assertThat(replica.rows(table)).as(table).isEqualTo(sourceRows(db, database, table));
    }
  }

  @Test
  @SuppressWarnings("try")
  void aReadRowEqualsTheBinlogsInsertOfTheSameRowForEveryType() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("snaptypes");
    db.execute(database, TypesIT.TABLE, "ALTER TABLE types ADD COLUMN u UUID, ADD COLUMN i6 INET6, ADD COLUMN i4 INET4");
    MysqlFetcherConfig config = Fixtures.config(db, database);
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(config, sink);
        Jdbc jdbc = new Jdbc(config, Secret.resolve(config, Map.of()));
        Connection writer = db.connect(database); Statement w = writer.createStatement()) {
      w.execute("SET SESSION sql_mode = '', time_zone = '+00:00'");
      w.execute("INSERT INTO types (id, ti, tiu, bi, biu, d, d5, f, dbl, b1, b64, yr, dt, tm, tm6, dtm, dtm6, ts, ts6,"
          + " c, vc, vc_latin1, bn, vb, tx, bl, e, s, e_latin1, j, g, u, i6, i4) VALUES (1, -128, 255, -9223372036854775808,"
          + " 18446744073709551615, '-99999999999999999999999999999999999.999999999999999999999999999999', -0.99999,"
          + " -3.40282e38, 4.9e-324, 1, 18446744073709551615, 2155, '0000-00-00', '-838:59:59', '-00:00:00.000001',"
          + " '2020-00-00 01:02:03', '9999-12-31 23:59:59.999999', '0000-00-00 00:00:00', '2038-01-19 03:14:07.999999',"
          + " '😀𝄞é', 'ü😀', _latin1 X'41E9FF', X'00010000', X'00FF00', REPEAT('t', 3000), X'000102', 'é', 'x,z', 'ä',"
          + " '{\"a\": [1, 2.5, null]}', ST_GeomFromText('POINT(1 2)'), '6ccd780c-baba-1026-9564-5b8c656024db',"
          + " '::ffff:192.0.2.1', '10.0.0.255')");
      w.execute("INSERT INTO types (id, dt, dtm) VALUES (2, '2024-02-29', '1000-01-01 00:00:00')"); // NULLs elsewhere
      await().atMost(Duration.ofSeconds(30)).until(() -> sink.events().size() >= 2);
      // as the fetcher builds it: the declarations (UUID, INET, JSON) from the table's definition now
      ChunkReader reader = new ChunkReader(jdbc, new InformationSchema(jdbc),
          new SchemaFactory("test", DeclaredColumns.current(new ShowCreateTable(jdbc))), 1 << 20);
      Chunk chunk = reader.read(ChunkRequest.first(database, "types", 10, 1 << 20));
      List<Row> inserted = sink.events().stream().map(ChangeEvent::after).toList();
      assertThat(chunk.done()).isTrue();
      assertThat(chunk.schema().id()).isEqualTo(sink.events().get(0).schema().id());
      assertThat(chunk.rows()).containsExactlyElementsOf(inserted);
    }
  }

  /** The consumer's view: a map per keyed table (source wins), a multiset of rows per keyless table. */
  private static final class Replica {
    private final Map<String, Map<List<Object>, Row>> keyed = new HashMap<>();
    private final Map<String, List<Row>> keyless = new HashMap<>();

    void apply(ChangeEvent e) {
      if (!e.schema().hasPrimaryKey()) {
        List<Row> rows = keyless.computeIfAbsent(e.table(), t -> new ArrayList<>());
        if (e.before() != null) {
          rows.remove(e.before());
        }
        if (e.after() != null) {
          rows.add(e.after());
        }
        return;
      }
      Map<List<Object>, Row> rows = keyed.computeIfAbsent(e.table(), t -> new HashMap<>());
      if (e.before() != null) {
        rows.remove(key(e.schema(), e.before()));
      }
      if (e.after() != null) {
        rows.put(key(e.schema(), e.after()), e.after());
      }
      assertThat(e.op()).isNotEqualTo(Operation.READ);
    }

    void load(Chunk chunk) {
      if (!chunk.schema().hasPrimaryKey()) {
        keyless.put(chunk.schema().table(), new ArrayList<>(chunk.rows())); // replaces the table's rows
        return;
      }
      Map<List<Object>, Row> rows = keyed.computeIfAbsent(chunk.schema().table(), t -> new HashMap<>());
      chunk.rows().forEach(r -> rows.put(key(chunk.schema(), r), r));
    }

    List<String> rows(String table) {
      List<Row> rows = keyless.containsKey(table) ? keyless.get(table) : new ArrayList<>(keyed.get(table).values());
      return rows.stream().map(r -> text(r.toArray())).sorted().toList();
    }
  }

  /** Transactions and chunks in SCN order, each chunk right after its high watermark (Scn.ofSnapshot). */
  private static List<Object> merged(List<Transaction> transactions, List<Chunk> chunks) {
    TreeMap<Long, Object> steps = new TreeMap<>(Long::compareUnsigned);
    transactions.forEach(t -> steps.put(t.scn().value(), t));
    Map<Scn, Integer> subSequence = new HashMap<>();
    for (Chunk c : chunks) {
      int s = subSequence.merge(c.high(), 1, Integer::sum);
      steps.put(Scn.ofSnapshot(c.high(), s).value(), c);
    }
    return new ArrayList<>(steps.values());
  }

  private static List<Object> key(io.gridway.core.schema.TableSchema s, Row row) {
    List<Object> key = new ArrayList<>();
    for (int k = 0; k < s.keySize(); k++) {
      key.add(row.get(s.keyIndex(k)));
    }
    return key;
  }

  private static String text(Object[] values) {
    List<String> parts = new ArrayList<>();
    for (Object v : values) {
      parts.add(String.valueOf(v));
    }
    return String.join("|", parts);
  }

  private static List<String> sourceRows(PrivateMariaDb db, String database, String table) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.connect(database); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
          Object v = rs.getObject(i + 1);
          values[i] = v instanceof Integer x ? Long.valueOf(x) : v;
        }
        rows.add(text(values));
      }
    }
    rows.sort(Comparator.naturalOrder());
    return rows;
  }

  private static Scn endScn(PrivateMariaDb db) throws Exception {
    String[] end = Fixtures.endOfBinlog(db).split(":");
    return Scn.ofBinlog(BinlogNames.fileIndex(end[0]), Long.parseLong(end[1]));
  }

  /** Inserts, updates, deletes and key moves on all three tables until told to stop. */
  private static Void write(PrivateMariaDb db, String database, AtomicBoolean writing) throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try (Connection c = db.connect(database); Statement s = c.createStatement()) {
      int done = 0;
      while (writing.get() || done < 200) {
        int id = random.nextInt(1, ROWS * 2);
        String sql = switch (random.nextInt(7)) {
          case 0 -> "INSERT IGNORE INTO k VALUES (" + id + ", 'new', " + id + ")";
          case 1 -> "UPDATE k SET v = CONCAT(v, '+'), n = n + 1 WHERE id = " + id;
          case 2 -> "DELETE FROM k WHERE id = " + id;
          case 3 -> "UPDATE IGNORE k SET id = " + (ROWS * 2 + random.nextInt(ROWS)) + " WHERE id = " + id; // key move
          case 4 -> "UPDATE IGNORE k2 SET a = a + 1, v = v + 1 WHERE a = " + (id % 50) + " AND b = 'b" + id + "'";
          case 5 -> "INSERT INTO nokey VALUES (" + (id % 100) + ", 'y')";
          default -> "DELETE FROM nokey WHERE n = " + (id % 100) + " LIMIT 1";
        };
        s.execute(sql);
        done++;
      }
    }
    return null;
  }
}
