package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.JdbcApplierIT.rows;
import static io.gridway.applier.jdbc.Targets.create;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.applier.jdbc.JdbcApplierConfig.SchemaChangePolicy;
import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import io.gridway.policy.UnfitValueStrategy;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Set-based apply (JDBC.md "Set-based apply"): interleaved tables with repeated keys — insert, update, update, delete,
 * re-insert, key moves (also of a composite key with a string part), keyless duplicates — applied as one batch (one
 * target transaction, regrouped per table) leave the same target rows as the same changes applied one per batch (row
 * by row), read back with plain SQL; which tables keep source order is read from the catalog; a value the target
 * refuses in a big regrouped batch is parked by the row-by-row fallback and everything else applied.
 */
class SetBasedApplyIT {
  private static final int EVENTS = 600;

  private static Column varchar(String name, int length) {
    return new Column(name, ColumnType.VARCHAR, false, true, length, 0, 0, "utf8mb4", List.of());
  }

  private static List<TableSchema> schemas(String db) {
    return List.of(
        TableSchema.of("src", db, "a", List.of(Column.of("id", ColumnType.BIGINT).notNull(), varchar("v", 40)), List.of("id")),
        TableSchema.of("src", db, "b", List.of(varchar("k1", 10).notNull(), Column.of("k2", ColumnType.INT).notNull(),
            varchar("v", 40)), List.of("k1", "k2")),
        TableSchema.of("src", db, "log", List.of(Column.of("n", ColumnType.BIGINT), varchar("v", 40)), List.of()));
  }

  @Test
  void regroupedBatchEqualsRowByRowOnPostgres() throws Exception {
    try (Target grouped = Targets.postgres(PrivatePostgres.shared());
        Target rowByRow = Targets.postgres(PrivatePostgres.shared())) {
      sameFinalState(grouped, rowByRow);
    }
  }

  @Test
  void regroupedBatchEqualsRowByRowOnMariaDb() throws Exception {
    try (Target grouped = Targets.mariaDb(PrivateMariaDb.shared()); Target rowByRow = Targets.mariaDb(PrivateMariaDb.shared())) {
      sameFinalState(grouped, rowByRow);
    }
  }

  private void sameFinalState(Target grouped, Target rowByRow) throws Exception {
    List<Transaction> txs = workload(schemas(grouped.database()), new Random(24));
    applier(grouped).apply(JdbcTestBatches.batch(0, -1, txs));
    JdbcApplier single = applier(rowByRow);
    long scn = 1;
    for (Transaction t : workload(schemas(rowByRow.database()), new Random(24))) {
      for (ChangeEvent e : t.events()) { // one change per target transaction: nothing to regroup
        single.apply(JdbcTestBatches.batch(0, -1, List.of(tx(scn++, e))));
      }
    }
    for (String table : List.of("a", "b", "log")) {
      String sql = "SELECT * FROM " + grouped.dialect().quote(table) + (table.equals("b") ? " ORDER BY 1, 2, 3" : " ORDER BY 1, 2");
      List<String> want = rows(rowByRow, sql.replace("FROM ", "FROM " + qualifier(rowByRow)));
      assertThat(rows(grouped, sql.replace("FROM ", "FROM " + qualifier(grouped)))).as(table).isEqualTo(want);
      assertThat(want).as(table).isNotEmpty();
    }
    try (Connection c = grouped.pool().getConnection()) {
      for (TableSchema s : schemas(grouped.database())) {
        assertThat(OrderRules.keepsOrder(c, grouped.dialect(), s, new TableTarget(s.database(), s.table(), null)))
            .as(s.table()).isEqualTo(s.hasPrimaryKey() ? null : "no primary key");
      }
      c.rollback();
    }
  }

  private static String qualifier(Target t) {
    return t.dialect().quote(t.database()) + ".";
  }

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private JdbcApplier applier(Target t) {
    return new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(SchemaChangePolicy.APPLY)
        .withUnfitValues(UnfitValueStrategy.PARK), null, new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()),
        meters, Clock.systemUTC());
  }

  /**
   * A consistent source history: the CREATEs, then a fixed story of key 1 of {@code a} (insert, update, update, delete,
   * re-insert, moves away and back), then random changes over few keys (so each repeats), in transactions of 1–4.
   */
  static List<Transaction> workload(List<TableSchema> s, Random random) {
    TableSchema a = s.get(0);
    TableSchema b = s.get(1);
    TableSchema log = s.get(2);
    List<ChangeEvent> events = new ArrayList<>(List.of(create(a), create(b), create(log)));
    events.add(ins(a, Row.of(a, 1L, "one")));
    events.add(upd(a, Row.of(a, 1L, "one"), Row.of(a, 1L, "two")));
    events.add(upd(a, Row.of(a, 1L, "two"), Row.of(a, 1L, "three")));
    events.add(ChangeEvent.delete(a, Row.of(a, 1L, "three"), Scn.ZERO, 0, 0));
    events.add(ins(a, Row.of(a, 1L, "again")));
    events.add(upd(a, Row.of(a, 1L, "again"), Row.of(a, 2L, "moved")));
    events.add(upd(a, Row.of(a, 2L, "moved"), Row.of(a, 1L, "back")));
    Map<List<Object>, Row> rowsA = new LinkedHashMap<>(Map.of(List.of(1L), Row.of(a, 1L, "back")));
    Map<List<Object>, Row> rowsB = new LinkedHashMap<>();
    List<Row> logRows = new ArrayList<>();
    for (int i = 0; events.size() < EVENTS; i++) {
      switch (random.nextInt(3)) {
        case 0 -> keyed(events, a, rowsA, random, List.of((long) 1 + random.nextInt(6)), i);
        case 1 -> keyed(events, b, rowsB, random, List.of(random.nextBoolean() ? "x" : "x ", 1L + random.nextInt(3)), i);
        default -> {
          int pick = random.nextInt(4);
          Row r = Row.of(log, (long) random.nextInt(3), random.nextBoolean() ? "p" : "q");
          if (pick < 2 || logRows.isEmpty()) {
            events.add(ins(log, r)); // duplicates of the same row on purpose
            logRows.add(r);
          } else {
            Row old = logRows.remove(random.nextInt(logRows.size()));
            if (pick == 2) {
              events.add(ChangeEvent.delete(log, old, Scn.ZERO, 0, 0)); // one instance of it
            } else {
              events.add(upd(log, old, r));
              logRows.add(r);
            }
          }
        }
      }
    }
    List<Transaction> txs = new ArrayList<>();
    long scn = 1;
    for (int from = 0; from < events.size(); scn++) {
      int n = Math.min(events.size() - from, from == 0 ? 3 : 1 + random.nextInt(4));
      txs.add(tx(scn, events.subList(from, from + n).toArray(ChangeEvent[]::new)));
      from += n;
    }
    return txs;
  }

  /** Insert of a free key; or an update in place, a move to a free key, or a delete of a held one. */
  private static void keyed(List<ChangeEvent> events, TableSchema s, Map<List<Object>, Row> rows, Random random,
      List<Object> key, int i) {
    Row old = rows.get(key);
    if (old == null) {
      Row r = row(s, key, "i" + i);
      events.add(ins(s, r));
      rows.put(key, r);
      return;
    }
    switch (random.nextInt(3)) {
      case 0 -> {
        Row r = row(s, key, "u" + i);
        events.add(upd(s, old, r));
        rows.put(key, r);
      }
      case 1 -> {
        List<Object> free = null;
        for (int k = 1; free == null; k++) { // the lowest free key: moves often land on keys used before
          List<Object> candidate = key.size() == 1 ? List.of((long) k) : List.of(k % 2 == 0 ? "y" : "x", (long) k / 2);
          free = rows.containsKey(candidate) ? null : candidate;
        }
        Row r = row(s, free, "m" + i);
        events.add(upd(s, old, r)); // a key move: delete of the old key + insert of the new
        rows.remove(key);
        rows.put(free, r);
      }
      default -> {
        events.add(ChangeEvent.delete(s, old, Scn.ZERO, 0, 0));
        rows.remove(key);
      }
    }
  }

  private static Row row(TableSchema s, List<Object> key, String v) {
    List<Object> values = new ArrayList<>(key);
    values.add(v);
    return Row.of(s, values.toArray());
  }

  private static ChangeEvent ins(TableSchema s, Row r) {
    return ChangeEvent.insert(s, r, Scn.ZERO, 0, 0);
  }

  private static ChangeEvent upd(TableSchema s, Row before, Row after) {
    return ChangeEvent.update(s, before, after, Scn.ZERO, 0, 0);
  }

  @Test
  void tablesWithUniqueKeysForeignKeysOrTriggersKeepSourceOrder() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      try (Connection c = t.pool().getConnection(); Statement st = c.createStatement()) {
        st.execute("CREATE TABLE shop.parent (id BIGINT PRIMARY KEY, code TEXT UNIQUE)");
        st.execute("CREATE TABLE shop.child (id BIGINT PRIMARY KEY, parent BIGINT REFERENCES shop.parent (id))");
        st.execute("CREATE TABLE shop.free (id BIGINT PRIMARY KEY, v TEXT)");
        st.execute("CREATE TABLE shop.ci (id TEXT COLLATE \"C\" PRIMARY KEY)");
        c.commit();
        assertThat(keepsOrder(c, t, "parent")).isEqualTo("a unique secondary key or exclusion constraint");
        assertThat(keepsOrder(c, t, "child")).isEqualTo("a foreign key");
        assertThat(keepsOrder(c, t, "free")).isNull();
        assertThat(keepsOrder(c, t, "ci")).isNull();
        c.rollback();
      }
    }
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      try (Connection c = t.pool().getConnection(); Statement st = c.createStatement()) {
        st.execute("CREATE TABLE parent (id BIGINT PRIMARY KEY, code VARCHAR(9)) ENGINE=InnoDB");
        st.execute("CREATE TABLE child (id BIGINT PRIMARY KEY, parent BIGINT, FOREIGN KEY (parent) REFERENCES parent (id))"
            + " ENGINE=InnoDB");
        st.execute("CREATE TABLE uniq (id BIGINT PRIMARY KEY, code VARCHAR(9) UNIQUE) ENGINE=InnoDB");
        st.execute("CREATE TABLE ci (id VARCHAR(9) COLLATE utf8mb4_general_ci PRIMARY KEY) ENGINE=InnoDB");
        st.execute("CREATE TABLE bin (id VARCHAR(9) COLLATE utf8mb4_bin PRIMARY KEY) ENGINE=InnoDB");
        st.execute("CREATE TABLE trig (id BIGINT PRIMARY KEY) ENGINE=InnoDB");
        st.execute("CREATE TRIGGER trig_ai AFTER INSERT ON trig FOR EACH ROW SET @n = 1");
        assertThat(keepsOrder(c, t, "parent")).isEqualTo("a foreign key"); // the referenced side too
        assertThat(keepsOrder(c, t, "child")).isEqualTo("a foreign key");
        assertThat(keepsOrder(c, t, "uniq")).isEqualTo("a unique secondary key or exclusion constraint");
        assertThat(keepsOrder(c, t, "ci")).isEqualTo("a key column compared case- or accent-insensitively");
        assertThat(keepsOrder(c, t, "bin")).isNull();
        assertThat(keepsOrder(c, t, "trig")).isEqualTo("a trigger");
        c.rollback();
      }
    }
  }

  private static String keepsOrder(Connection c, Target t, String table) throws Exception {
    TableSchema s = TableSchema.of("src", t.database(), table, List.of(Column.of("id", ColumnType.BIGINT).notNull()),
        List.of("id"));
    return OrderRules.keepsOrder(c, t.dialect(), s, new TableTarget(t.database(), table, null));
  }

  /**
   * PostgreSQL's COPY path for rounds of new keys: awkward text (escapes, non-ASCII, a 4-byte character, the text
   * {@code \N}, empty beside NULL) arrives exactly; a round whose keys the target partly holds falls back to upserts
   * (the savepoint undoes the failed COPY); a NUL, which COPY cannot carry, goes by statements and is parked.
   */
  @Test
  void roundsOfNewKeysGoByCopyAndFallBackToUpsertsOnPostgres() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      List<TableSchema> s = schemas(t.database());
      TableSchema a = s.get(0);
      TableSchema b = s.get(1);
      JdbcApplier applier = applier(t);
      List<ChangeEvent> held = new ArrayList<>();
      for (long i = 1; i <= 10; i++) {
        held.add(ins(a, Row.of(a, i, "old" + i)));
      }
      applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(1, create(a), create(b)),
          tx(2, held.toArray(ChangeEvent[]::new)))));
      String[] awkward = {"tab\there", "line\nbreak\r", "back\\slash", "\\N", "", null, "é ü ß 日本", "\uD83D\uDE00 4 bytes"};
      List<ChangeEvent> events = new ArrayList<>();
      for (long i = 1; i <= 300; i++) {
        events.add(ins(a, Row.of(a, i, "new" + i))); // keys 1..10 are on the target: COPY meets them, upserts follow
        events.add(ins(b, Row.of(b, "k" + i, i, awkward[(int) (i % awkward.length)])));
      }
      applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(3, events.toArray(ChangeEvent[]::new)))));
      String db = t.dialect().quote(t.database()) + ".";
      assertThat(rows(t, "SELECT count(*), min(v), max(v) FROM " + db + "a WHERE v LIKE 'new%'"))
          .containsExactly("300|new1|new99");
      List<String> want = new ArrayList<>();
      List<String> got = new ArrayList<>();
      try (Connection c = t.pool().getConnection(); Statement st = c.createStatement();
          java.sql.ResultSet rs = st.executeQuery("SELECT k2, v FROM " + db + "b ORDER BY k2")) {
        while (rs.next()) {
          got.add(rs.getLong(1) + "=" + rs.getString(2));
          want.add(rs.getLong(1) + "=" + awkward[(int) (rs.getLong(1) % awkward.length)]);
        }
        c.rollback();
      }
      assertThat(got).hasSize(300).isEqualTo(want);
      assertThat(meters.counter("gridway.consumer.jdbc.copy.rows").count()).as("b went by COPY").isEqualTo(300);
      assertThat(meters.counter("gridway.consumer.jdbc.copy.fallbacks", "reason", "held-key").count()).isEqualTo(1);
      events.clear();
      for (long i = 301; i <= 400; i++) {
        events.add(ins(b, Row.of(b, "k" + i, i, i == 350 ? "nul\u0000inside" : "v" + i)));
      }
      applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(4, events.toArray(ChangeEvent[]::new)))));
      assertThat(rows(t, "SELECT count(*) FROM " + db + "b WHERE k2 > 300")).containsExactly("99");
      assertThat(rows(t, "SELECT scn, op, event_key FROM gridway_dead_letter")).containsExactly("4|INSERT|k1=k350, k2=350");
      assertThat(meters.counter("gridway.consumer.jdbc.copy.fallbacks", "reason", "value").count()).isEqualTo(1);
    }
  }

  @Test
  void everyTypeCopyWritesReadsBackAsTheMappingSays() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      // the every-type table less the types COPY leaves to statements (BIT, TIME), so that the round goes by COPY
      TableSchema full = TypeRows.schema(t.database());
      List<Integer> kept = new ArrayList<>();
      for (int i = 0; i < full.columnCount(); i++) {
        ColumnType type = full.columns().get(i).type();
        if (type != ColumnType.BIT && type != ColumnType.TIME) {
          kept.add(i);
        }
      }
      TableSchema s = TableSchema.of("src", t.database(), "every_type_copied",
          kept.stream().map(full.columns()::get).toList(), List.of("id"));
      List<Row> edge = TypeRows.rows(full);
      List<Row> want = new ArrayList<>();
      List<ChangeEvent> events = new ArrayList<>();
      for (long k = 1; k <= PostgresCopy.MIN_ROWS + 16; k++) {
        // row 0 holds the edge values, row 2 NULLs; row 1's zero dates are no value COPY writes (statements carry them)
        Row source = edge.get(k % 2 == 0 ? 0 : 2);
        Object[] values = kept.stream().map(source::get).toArray();
        values[0] = k;
        Row row = Row.of(s, values);
        want.add(row);
        events.add(ins(s, row));
      }
      JdbcApplier applier = applier(t);
      applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(1, create(s)), tx(2, events.toArray(ChangeEvent[]::new)))));

      assertThat(meters.counter("gridway.consumer.jdbc.copy.rows").count()).as("the round went by COPY")
          .isEqualTo(want.size());
      try (Connection c = t.pool().getConnection(); Statement st = c.createStatement();
          java.sql.ResultSet rs = st.executeQuery("SELECT * FROM " + t.dialect().table(s.database(), s.table())
              + " ORDER BY 1")) {
        for (Row expected : want) {
          assertThat(rs.next()).isTrue();
          TypeRows.assertMapped(t.dialect(), s, expected, TypeRows.read(t.dialect(), s, rs));
        }
        assertThat(rs.next()).isFalse();
        c.rollback();
      }
    }
  }

  @Test
  void aRefusedValueInABigRegroupedBatchIsParkedAndTheRestAppliedOnPostgres() throws Exception {
    try (Target t = Targets.postgres(PrivatePostgres.shared())) {
      refusedValueIsParked(t, "bad\u0000value"); // NUL in text: SQLSTATE 22021
    }
  }

  @Test
  void aRefusedValueInABigRegroupedBatchIsParkedAndTheRestAppliedOnMariaDb() throws Exception {
    try (Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      refusedValueIsParked(t, "x".repeat(41)); // longer than VARCHAR(40) under the strict session: SQLSTATE 22001
    }
  }

  private void refusedValueIsParked(Target t, String unfit) throws Exception {
    {
      List<TableSchema> s = schemas(t.database());
      TableSchema a = s.get(0);
      TableSchema b = s.get(1);
      List<ChangeEvent> events = new ArrayList<>();
      for (long i = 1; i <= 1000; i++) { // interleaved tables: regrouped into a few statements per table
        events.add(ins(a, Row.of(a, i, i == 500 ? unfit : "v" + i)));
        events.add(ins(b, Row.of(b, "k", i, "w" + i)));
      }
      events.add(upd(a, Row.of(a, 7L, "v7"), Row.of(a, 7L, "seven")));
      JdbcApplier applier = applier(t);
      applier.apply(JdbcTestBatches.batch(0, -1, List.of(tx(1, create(a), create(b)),
          tx(2, events.toArray(ChangeEvent[]::new)))));
      String db = t.dialect().quote(t.database()) + ".";
      assertThat(rows(t, "SELECT count(*) FROM " + db + "a")).containsExactly("999");
      assertThat(rows(t, "SELECT count(*) FROM " + db + "b")).containsExactly("1000");
      assertThat(rows(t, "SELECT v FROM " + db + "a WHERE id IN (7, 499, 501) ORDER BY id"))
          .containsExactly("seven", "v499", "v501");
      assertThat(rows(t, "SELECT scn, op, event_key FROM gridway_dead_letter")).containsExactly("2|INSERT|id=500");
      assertThat(meters.counter("gridway.consumer.jdbc.parked").count()).isEqualTo(1);
    }
  }
}
