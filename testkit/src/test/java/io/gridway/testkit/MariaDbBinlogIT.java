package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbBinlogIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

  @Test
  void rowsWrittenToATableAppearAsWriteRowsEventsInTheBinlog() throws SQLException {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("binlog");
    db.execute(database, "CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(20))");

    try (Connection c = db.connect(database);
        Statement s = c.createStatement()) {
      String file;
      long position;
      try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
        assertThat(rs.next()).as("binary logging is on").isTrue();
        file = rs.getString("File");
        position = rs.getLong("Position");
      }
      s.execute("INSERT INTO orders VALUES (1, 'one'), (2, 'two')");

      List<String> events = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SHOW BINLOG EVENTS IN '" + file + "' FROM " + position)) {
        while (rs.next()) {
          events.add(rs.getString("Event_type") + " " + rs.getString("Info"));
        }
      }
      assertThat(events)
          .anySatisfy(
              e -> assertThat(e).startsWith("Table_map").contains("(" + database + ".orders)"))
          .anySatisfy(e -> assertThat(e).startsWith("Write_rows"));
    }
  }

  @Test
  void binlogIsRowBasedWithFullImagesAndFullMetadata() throws SQLException {
    assertThat(variable("log_bin")).isEqualTo("1");
    assertThat(variable("binlog_format")).isEqualTo("ROW");
    assertThat(variable("binlog_row_image")).isEqualTo("FULL");
    assertThat(variable("binlog_row_metadata")).isEqualTo("FULL");
    assertThat(variable("server_id")).isEqualTo(Integer.toString(MARIADB.server().serverId()));
  }

  @Test
  void isAPrivateServerNotTheMachines(PrivateMariaDb db) throws SQLException {
    assertThat(db).isSameAs(MARIADB.server());
    assertThat(db.port()).isNotEqualTo(3306);
    assertThat(variable("datadir")).isEqualTo(db.dataDir() + "/");
    assertThat(variable("bind_address")).isEqualTo("127.0.0.1");
  }

  @Test
  void replicationUserMayReadTheBinlogPosition() throws SQLException {
    PrivateMariaDb db = MARIADB.server();
    try (Connection c =
            java.sql.DriverManager.getConnection(
                db.jdbcUrl(""), db.replicationUser(), db.replicationPassword());
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
        assertThat(rs.next()).isTrue();
      }
      try (ResultSet rs = s.executeQuery("SHOW GRANTS")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).contains("REPLICATION SLAVE").contains("SELECT");
      }
    }
  }

  @Test
  void createDatabaseReturnsAFreshNameEachTime() {
    PrivateMariaDb db = MARIADB.server();
    assertThat(db.createDatabase("fresh")).isNotEqualTo(db.createDatabase("fresh"));
  }

  private static String variable(String name) throws SQLException {
    try (Connection c = MARIADB.server().connect("");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@GLOBAL." + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
