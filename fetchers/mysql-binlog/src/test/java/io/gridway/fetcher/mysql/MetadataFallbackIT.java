package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.testkit.MariaDbExtension;
import io.gridway.testkit.PrivateMariaDb;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Without binlog_row_metadata=FULL the column names, members and key come from information_schema. */
class MetadataFallbackIT {
  @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.dedicated();

  @AfterEach
  void restoreFullMetadata() throws Exception {
    MARIADB.server().execute("", "SET GLOBAL binlog_row_metadata = 'FULL'");
  }

  @Test
  void minimalAndNoMetadataReadTheTableFromInformationSchemaAndAgainAfterDdl() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("fallback");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10) CHARACTER SET latin1, e ENUM('x','y'), u INT UNSIGNED)",
        "SET GLOBAL binlog_row_metadata = 'MINIMAL'");
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.started(Fixtures.config(db, database), sink)) {
      db.execute(database, "INSERT INTO t VALUES (1, 'é', 'y', 4294967295)");
      // without FULL metadata a row decodes only with the columns information_schema has when it is read: the fetcher
      // must have read the first row before the ALTER runs (the other test shows the refusal when it has not)
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || sink.transactions.size() >= 1);
      db.execute(database, "ALTER TABLE t ADD COLUMN extra VARCHAR(5)",
          "INSERT INTO t VALUES (2, 'ü', 'x', 1, 'new')", "SET GLOBAL binlog_row_metadata = 'NO_LOG'",
          "INSERT INTO t VALUES (3, 'ÿ', NULL, 2, 'none')");
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || sink.transactions.size() >= 4);
      assertThat(sink.failure).isNull();
      ChangeEvent first = sink.transactions.get(0).events().get(0);
      assertThat(first.schema().columns()).extracting(c -> c.name()).containsExactly("id", "name", "e", "u");
      assertThat(first.schema().primaryKey()).containsExactly("id");
      assertThat(first.schema().column(2).members()).containsExactly("x", "y");
      assertThat(first.after()).containsExactly(1L, "é", "y", 4294967295L);
      ChangeEvent ddl = sink.transactions.get(1).events().get(0);
      ChangeEvent second = sink.transactions.get(2).events().get(0);
      assertThat(second.schema()).isEqualTo(ddl.schema());
      assertThat(second.after()).containsExactly(2L, "ü", "x", 1L, "new");
      ChangeEvent third = sink.transactions.get(3).events().get(0);
      assertThat(third.schema()).isEqualTo(second.schema());
      assertThat(third.after()).containsExactly(3L, "ÿ", null, 2L, "none");
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
    }
  }

  @Test
  void oldRowsOfATableThatChangedSinceAreRefusedWithAdvice() throws Exception {
    PrivateMariaDb db = MARIADB.server();
    String database = db.createDatabase("fallback");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)", "SET GLOBAL binlog_row_metadata = 'MINIMAL'");
    String[] position = Fixtures.endOfBinlog(db).split(":");
    db.execute(database, "INSERT INTO t VALUES (1)", "ALTER TABLE t ADD COLUMN later INT");
    RecordingSink sink = new RecordingSink();
    MysqlBinlogFetcher fetcher = Fixtures.fetcher(Fixtures.config(db, database));
    try (fetcher) {
      fetcher.start(new SourcePosition.Binlog(position[0], Long.parseLong(position[1]), ""), sink);
      await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null);
    }
    assertThat(sink.failure.getMessage()).contains(database + ".t: the binlog's table map has 1 columns but information_schema now has 2")
        .contains("set binlog_row_metadata=FULL");
  }
}
