package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.fetch.FetcherStatus;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.TestPki;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MariaDB that accepts only TLS (require_secure_transport, a certificate made by this test): the fetcher reads its
 * binlog and information_schema over TLS with each mode, and a certificate that does not name the configured host,
 * or one from another CA, is a clear refusal rather than a retry loop. One server for the class.
 */
@Timeout(180)
class SourceTlsIT {
  @TempDir
  static Path dir;
  private static TestPki pki;
  private static PrivateMariaDb db;

  @BeforeAll
  static void tlsOnlyServer() {
    pki = TestPki.create(dir);
    db = PrivateMariaDb.dedicatedWithTls(pki.serverFiles(pki.server("mariadb", "127.0.0.1")));
  }

  @AfterAll
  static void stop() {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void theBinlogIsReadOverTlsInEveryVerifyingModeAndPlainConnectionsAreRefused() throws Exception {
    String database = db.createDatabase("tls");
    db.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))");
    MysqlFetcherConfig base = Fixtures.config(db, database).withConnectTimeout(Duration.ofSeconds(1));
    int expected = 0;
    for (MysqlFetcherConfig.Tls tls : new MysqlFetcherConfig.Tls[] {new MysqlFetcherConfig.Tls(MysqlFetcherConfig.Tls.Mode.VERIFY_IDENTITY, pki.caFile().toString()),
        new MysqlFetcherConfig.Tls(MysqlFetcherConfig.Tls.Mode.VERIFY_CA, pki.caFile().toString()), new MysqlFetcherConfig.Tls(MysqlFetcherConfig.Tls.Mode.REQUIRED, null)}) {
      RecordingSink sink = new RecordingSink();
      try (MysqlBinlogFetcher fetcher = Fixtures.started(base.withTls(tls).withServerId(Fixtures.nextServerId()), sink)) {
        expected++;
        db.execute(database, "INSERT INTO t VALUES (" + expected + ", 'over " + tls.mode() + "')");
        await().atMost(Duration.ofSeconds(20)).until(() -> sink.failure != null || !sink.transactions.isEmpty());
        assertThat(sink.failure).isNull();
        assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
        assertThat(sink.transactions.get(sink.transactions.size() - 1).events().get(0).after().get(1))
            .hasToString("over " + tls.mode());
      }
    }
    RecordingSink plain = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.fetcher(base)) {
      fetcher.start(null, plain);
      // MariaDB answers a plain connection under require_secure_transport with "access denied" (docs/security.md)
      await().atMost(Duration.ofSeconds(20)).until(() -> fetcher.status().state() == FetcherStatus.State.FAILED);
      assertThat(fetcher.status().detail()).contains("access denied for user '" + db.replicationUser() + "'");
    }
  }

  @Test
  void aCertificateForAnotherHostOrFromAnotherCaIsRefusedNamingTheHost() throws SQLException {
    // a short timeout: the JDBC pool retries a refused connection until it expires
    MysqlFetcherConfig base = Fixtures.config(db, db.createDatabase("refusal")).withConnectTimeout(Duration.ofSeconds(1));
    MysqlFetcherConfig byName = new MysqlFetcherConfig(base.source(), "localhost", base.port(), base.user(),
        base.passwordFile(), null, Fixtures.nextServerId(), null, base.heartbeatInterval(), base.connectTimeout(),
        base.include(), base.exclude(), base.reconnectBackoffMax(), base.maxTransactionBytes(),
        new MysqlFetcherConfig.Tls(MysqlFetcherConfig.Tls.Mode.VERIFY_IDENTITY, pki.caFile().toString()));
    expectRefusal(byName, "TLS to localhost:" + db.port() + " refused: ");
    TestPki other = TestPki.create(dir.resolve("other"), "other-ca");
    expectRefusal(base.withTls(new MysqlFetcherConfig.Tls(MysqlFetcherConfig.Tls.Mode.VERIFY_CA, other.caFile().toString())),
        "TLS to 127.0.0.1:" + db.port() + " refused: ");
  }

  private static void expectRefusal(MysqlFetcherConfig config, String prefix) {
    RecordingSink sink = new RecordingSink();
    try (MysqlBinlogFetcher fetcher = Fixtures.fetcher(config)) {
      fetcher.start(null, sink);
      await().atMost(Duration.ofSeconds(20)).until(() -> fetcher.status().state() == FetcherStatus.State.FAILED);
      assertThat(fetcher.status().detail()).startsWith(prefix)
          .contains("check tls.mode and tls.caFile, and that the server's certificate names the host in 'host'");
    }
  }
}
