package io.gridway.applier.jdbc;

import static io.gridway.applier.jdbc.Targets.batch;
import static io.gridway.applier.jdbc.Targets.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.applier.jdbc.JdbcApplierConfig.SchemaChangePolicy;
import io.gridway.applier.jdbc.Targets.Target;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivateMariaDb;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MariaDB → MariaDB schema changes replay the source's own statements: every attribute the binlog's table map lacks
 * (ZEROFILL, generated expressions, INVISIBLE, UUID/INET/spatial, per-column charset, 4-byte ENUM labels, the table's
 * collation) arrives, each table version in SCN order; generated columns are never written; a table the operator
 * made is kept when compatible and reported when not. Compared by normalised {@code SHOW CREATE TABLE} against the
 * same statements run directly in a reference database, and by {@code HEX()} of the values.
 */
class SchemaReplayIT {
  private static final String V1 = "CREATE TABLE t (\n"
      + "  name VARCHAR(40) COLLATE utf8mb4_unicode_ci NOT NULL,\n"
      + "  n INT(8) UNSIGNED ZEROFILL NOT NULL,\n"
      + "  d DECIMAL(12,4) UNSIGNED,\n"
      + "  l VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci,\n"
      + "  e ENUM('a','\uD83D\uDE00','c'),\n"
      + "  u UUID, i6 INET6, i4 INET4, p POINT, j JSON, tt TINYTEXT, mb MEDIUMBLOB,\n"
      + "  g_stored INT AS (n * 2) STORED,\n"
      + "  g_virtual VARCHAR(50) AS (CONCAT(name, '-', n)) VIRTUAL,\n"
      + "  hidden INT INVISIBLE,\n"
      + "  PRIMARY KEY (name, n)\n"
      + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci";
  private static final String ALTER1 = "ALTER TABLE t ADD COLUMN z SMALLINT(5) ZEROFILL AFTER n";
  private static final String ALTER2 = "ALTER TABLE t DROP COLUMN tt, MODIFY l VARCHAR(30) CHARACTER SET latin1";

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void sourceStatementsReplayInOrderAndGeneratedColumnsAreNeverWritten() throws Exception {
    PrivateMariaDb server = PrivateMariaDb.shared();
    String reference = server.createDatabase("ref");
    try (Target t = Targets.mariaDb(server)) {
      TableSchema v1 = schema(t.database(), false);
      TableSchema v2 = schema(t.database(), true);
      JdbcApplier applier = applier(t);
      // the consumer applies late: both ALTERs and the rows of each version in one batch, in SCN order
      applier.apply(batch(-1, tx(1, Targets.ddl(v1, V1)),
          tx(2, ChangeEvent.insert(v1, row(v1, "Ab", 7L, null), Scn.ZERO, 0, 0)),
          tx(3, Targets.ddl(v2, "/* a comment */ " + ALTER1)),
          tx(4, ChangeEvent.insert(v2, row(v2, "cd", 8L, 3L), Scn.ZERO, 0, 0)),
          tx(5, Targets.ddl(v2, ALTER2))));
      server.execute(reference, V1, ALTER1, ALTER2);
      assertThat(showCreate(t, t.database())).isEqualTo(showCreate(t, reference));
      assertThat(showCreate(t, t.database())).contains("zerofill", "INVISIBLE", "STORED", "VIRTUAL", "uuid", "inet6",
          "inet4", "point", "latin1", "utf8mb4_unicode_ci", "decimal(12,4) unsigned", "mediumblob");
      // SHOW CREATE TABLE prints a 4-byte ENUM label as '?' (so does information_schema): the value shows it is there
      assertThat(Sql.rows(t, "SELECT HEX(e) FROM " + t.database() + ".t")).containsExactly("F09F9880", "F09F9880");
      // the target computed the generated columns itself
      assertThat(Sql.rows(t, "SELECT name, n, z, g_stored, g_virtual FROM " + t.database() + ".t ORDER BY name"))
          .containsExactly("Ab|00000007|null|14|Ab-00000007", "cd|00000008|00003|16|cd-00000008");
      // a redelivered ALTER (a crash between the DDL's implicit commit and the checkpoint) is recognised as applied
      JdbcApplier restarted = applier(t);
      restarted.apply(batch(-1, tx(3, Targets.ddl(v2, ALTER1))));
    }
  }

  @Test
  void anOperatorsTableIsKeptWhenCompatibleAndReportedWhenNot() throws Exception {
    PrivateMariaDb server = PrivateMariaDb.shared();
    try (Target t = Targets.mariaDb(server)) {
      server.execute(t.database(), "CREATE TABLE t (name VARCHAR(40) NOT NULL, n INT UNSIGNED NOT NULL, d DECIMAL(12,4),"
          + " l TEXT, e TEXT, u UUID, i6 INET6, i4 INET4, p POINT, j JSON, tt TEXT, mb LONGBLOB, g_stored INT,"
          + " g_virtual TEXT, hidden INT, extra INT DEFAULT 5, PRIMARY KEY (name, n))");
      TableSchema v1 = schema(t.database(), false);
      applier(t).apply(batch(-1, tx(1, Targets.ddl(v1, V1)), tx(2, ChangeEvent.insert(v1, row(v1, "x", 1L, null), Scn.ZERO, 0, 0))));
      assertThat(Sql.rows(t, "SELECT name, n, extra FROM " + t.database() + ".t")).containsExactly("x|1|5");
      server.execute(t.database(), "ALTER TABLE t DROP COLUMN d");
      assertThatThrownBy(() -> applier(t).apply(batch(-1, tx(3, Targets.ddl(v1, V1)))))
          .isInstanceOf(ConflictException.class).hasMessageContaining("column d is missing on the target");
    }
  }

  @Test
  void aMissingTargetDatabaseIsCreatedOrReported() throws Exception {
    PrivateMariaDb server = PrivateMariaDb.shared();
    try (Target t = Targets.mariaDb(server)) {
      String missing = t.database() + "_new";
      TableSchema v1 = TableSchema.of("src", missing, "t", List.of(Column.of("id", ColumnType.BIGINT).notNull()), List.of("id"));
      JdbcApplierConfig off = JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(SchemaChangePolicy.APPLY)
          .withCreateDatabases(false);
      JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
      assertThatThrownBy(() -> new JdbcApplier(t.pool(), off, null, store, meters, Clock.systemUTC())
          .apply(batch(-1, tx(1, Targets.ddl(v1, "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY)")))))
          .isInstanceOf(ConflictException.class).hasMessageContaining("target database " + missing + " does not exist");
      applier(t).apply(batch(-1, tx(1, Targets.ddl(v1, "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY)")),
          tx(2, ChangeEvent.insert(v1, Row.of(v1, 5L), Scn.ZERO, 0, 0))));
      assertThat(Sql.rows(t, "SELECT id FROM " + missing + ".t")).containsExactly("5");
    }
  }

  private JdbcApplier applier(Target t) {
    JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
    return new JdbcApplier(t.pool(), JdbcApplierConfig.of("g", t.dialect()).withSchemaChange(SchemaChangePolicy.APPLY),
        null, store, meters, Clock.systemUTC());
  }

  /** The core schema a fetcher gives: every column of the row image, generated ones included (as the binlog has them). */
  private static TableSchema schema(String db, boolean withZ) {
    List<Column> cols = new ArrayList<>();
    cols.add(new Column("name", ColumnType.VARCHAR, false, false, 40, 0, 0, "utf8mb4", List.of()));
    cols.add(new Column("n", ColumnType.INT, true, false, 0, 0, 0, null, List.of()));
    if (withZ) {
      cols.add(new Column("z", ColumnType.SMALLINT, true, true, 0, 0, 0, null, List.of()));
    }
    cols.add(Column.decimal("d", 12, 4));
    cols.add(new Column("l", ColumnType.VARCHAR, false, true, 20, 0, 0, "latin1", List.of()));
    cols.add(Column.members("e", ColumnType.ENUM, List.of("a", "\uD83D\uDE00", "c")));
    cols.add(new Column("u", ColumnType.BINARY, false, true, 16, 0, 0, null, List.of()));
    cols.add(Column.of("g_stored", ColumnType.INT));
    cols.add(new Column("g_virtual", ColumnType.VARCHAR, false, true, 50, 0, 0, "utf8mb4", List.of()));
    cols.add(Column.of("hidden", ColumnType.INT));
    return TableSchema.of("src", db, "t", cols, List.of("name", "n"));
  }

  /** A row whose generated columns hold values the target must not be given. */
  private static Row row(TableSchema s, String name, long n, Long z) {
    List<Object> values = new ArrayList<>(List.of(name, n));
    if (s.indexOf("z") >= 0) {
      values.add(z);
    }
    values.addAll(java.util.Arrays.asList(new java.math.BigDecimal("12.5000"), "caf\u00e9", "\uD83D\uDE00", null,
        999L, "wrong", 42L));
    return Row.of(s, values.toArray());
  }

  private static String showCreate(Target t, String db) throws Exception {
    String text = Sql.rows(t, "SHOW CREATE TABLE " + db + ".t").get(0);
    return text.substring(text.indexOf('|') + 1);
  }

  /** Reads rows as server-side text (CAST to CHAR), joined with '|'. */
  static final class Sql {
    static List<String> rows(Target t, String sql) throws Exception {
      List<String> out = new ArrayList<>();
      try (Connection c = t.pool().getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          List<String> cols = new ArrayList<>();
          for (int i = 1; i <= n; i++) {
            cols.add(rs.getString(i));
          }
          out.add(String.join("|", cols));
        }
        c.rollback();
      }
      return out;
    }
  }
}
