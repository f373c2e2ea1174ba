package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbRestartIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.dedicated();

  @Test
  void restartAndCrashKeepDataAndPort() throws SQLException {
    PrivateMariaDb db = MARIADB.server();
    int port = db.port();
    String database = db.createDatabase("restart");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");

    db.restart();
    assertThat(db.port()).isEqualTo(port);
    db.execute(database, "INSERT INTO t VALUES (2)");

    db.kill();
    assertThat(db.isRunning()).isFalse();
    db.start();

    assertThat(db.port()).isEqualTo(port);
    assertThat(count(db, database)).isEqualTo(2);
  }

  @Test
  void theSharedServerCannotBeRestarted() {
    assertThatThrownBy(() -> PrivateMariaDb.shared().restart())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("dedicated()");
  }

  private static int count(PrivateMariaDb db, String database) throws SQLException {
    try (Connection c = db.connect(database);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
