package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresRestartIT {
  @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.dedicated();

  @Test
  void restartAndCrashKeepDataAndPort() throws SQLException {
    PrivatePostgres pg = POSTGRES.server();
    int port = pg.port();
    String database = pg.createDatabase("restart");
    pg.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");

    pg.restart();
    assertThat(pg.port()).isEqualTo(port);
    pg.execute(database, "INSERT INTO t VALUES (2)");

    pg.kill();
    assertThat(pg.isRunning()).isFalse();
    pg.start();

    assertThat(pg.port()).isEqualTo(port);
    assertThat(PostgresIT.single(pg, database, "SELECT count(*) FROM t")).isEqualTo("2");
  }
}
