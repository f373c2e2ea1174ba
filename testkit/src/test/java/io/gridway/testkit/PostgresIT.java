package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresIT {
  @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.shared();

  @Test
  void answersQueriesWithLogicalWalLevel() throws SQLException {
    PrivatePostgres pg = POSTGRES.server();
    assertThat(pg.port()).isNotEqualTo(5432);
    assertThat(single(pg, "postgres", "SELECT 1")).isEqualTo("1");
    assertThat(single(pg, "postgres", "SHOW wal_level")).isEqualTo("logical");
    assertThat(single(pg, "postgres", "SHOW data_directory")).isEqualTo(pg.dataDir().toString());
  }

  @Test
  void aFreshDatabaseCanHaveALogicalReplicationSlot(PrivatePostgres pg) throws SQLException {
    String database = pg.createDatabase("slots");
    pg.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)");
    assertThat(
            single(
                pg,
                database,
                "SELECT slot_name FROM pg_create_logical_replication_slot('"
                    + database
                    + "', 'test_decoding')"))
        .isEqualTo(database);
    pg.execute(database, "INSERT INTO t VALUES (1)");
    assertThat(
            single(
                pg,
                database,
                "SELECT string_agg(data, ';') FROM pg_logical_slot_get_changes('"
                    + database
                    + "', NULL, NULL)"))
        .contains("table public.t: INSERT: id[integer]:1");
    pg.execute(database, "SELECT pg_drop_replication_slot('" + database + "')");
  }

  static String single(PrivatePostgres pg, String database, String sql) throws SQLException {
    try (Connection c = pg.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
