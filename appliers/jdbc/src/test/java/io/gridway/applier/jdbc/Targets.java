package io.gridway.applier.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.consumer.Batch;
import io.gridway.consumer.JdbcTestBatches;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.sql.SQLException;
import java.util.List;

/** A fresh target database on the shared private servers, and small event builders. */
final class Targets {
  private Targets() {}

  /** A target in which {@code database} exists: a MariaDB database, or a PostgreSQL schema of a fresh database. */
  record Target(SqlDialect dialect, HikariDataSource pool, String database) implements AutoCloseable {
    @Override
    public void close() {
      pool.close();
    }
  }

  static Target mariaDb(PrivateMariaDb server) {
    String db = server.createDatabase("jdbc");
    return new Target(SqlDialect.MARIADB,
        JdbcTargets.pool(SqlDialect.MARIADB, server.jdbcUrl(db), server.rootUser(), server.rootPassword(), 4), db);
  }

  static Target postgres(PrivatePostgres server) throws SQLException {
    String db = server.createDatabase("jdbc");
    server.execute(db, "CREATE SCHEMA shop");
    return new Target(SqlDialect.POSTGRESQL,
        JdbcTargets.pool(SqlDialect.POSTGRESQL, server.jdbcUrl(db), server.user(), server.password(), 4), "shop");
  }

  static Transaction tx(long scn, ChangeEvent... events) {
    List<ChangeEvent> list = new java.util.ArrayList<>();
    for (ChangeEvent e : events) {
      list.add(new ChangeEvent(e.schema(), e.op(), e.before(), e.after(), e.ddl(), new Scn(scn), scn * 1_000_000, 0, ""));
    }
    return new Transaction(new Scn(scn), scn * 1_000_000, new SourcePosition.Generated(scn), "", list);
  }

  /** The CREATE TABLE a MariaDB source would have logged for this schema (MariaDB targets replay it). */
  static ChangeEvent create(TableSchema s) {
    return new ChangeEvent(s, Operation.SCHEMA_CHANGE, null, null,
        SqlDialect.MARIADB.createTable(SqlDialect.MARIADB.quote(s.table()), s), Scn.ZERO, 0, 0, "");
  }

  static ChangeEvent ddl(TableSchema s, String ddl) {
    return new ChangeEvent(s, Operation.SCHEMA_CHANGE, null, null, ddl, Scn.ZERO, 0, 0, "");
  }

  static Batch batch(int micro, Transaction... txs) {
    return JdbcTestBatches.batch(0, micro, List.of(txs));
  }
}
