package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.RelayAccess;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import io.gridway.testkit.GridwayLogs;
import io.gridway.testkit.TestPki;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on every hop of the data path, with certificates this test makes: a MariaDB that accepts only TLS → relay
 * (binlog and JDBC with {@code verify-identity}) → HTTPS with mutual TLS and a bearer token → consumer → JDBC applier
 * into a PostgreSQL with {@code ssl=on} and hostssl-only access ({@code sslmode=verify-full}). The MariaDB JDBC target
 * setting ({@code sslMode=verify-full}) is checked on the same server. Then the run's logs, {@code /v1/sources} and
 * {@code /metrics} are scanned for the secrets it used: none appears.
 */
@Timeout(180)
class TlsPipelineIT {
  private static final String TOKEN = "pipeline-token-0123456789";

  @Test
  void rowsTravelOverTlsOnEveryHopAndNoSecretIsShown(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued relayCert = pki.server("relay", "127.0.0.1");
    TestPki.Issued consumerCert = pki.client("consumer");
    GridwayLogs logs = GridwayLogs.atDebug(); // what an operator debugging a problem would see, too
    StringBuilder shown = new StringBuilder();
    String replicationPassword;
    try (PrivateMariaDb source = PrivateMariaDb.dedicatedWithTls(pki.serverFiles(pki.server("mariadb", "127.0.0.1")));
        PrivatePostgres target = PrivatePostgres.dedicatedWithTls(pki.serverFiles(pki.server("postgres", "127.0.0.1")))) {
      replicationPassword = source.replicationPassword();
      source.execute("", "CREATE DATABASE shop");
      source.execute("shop", "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)");
      String targetDb = target.createDatabase("tls");
      target.execute(targetDb, "CREATE SCHEMA shop", "CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)");
      assertThat(sslInUse(SqlDialect.MARIADB, source.jdbcUrl("shop").replace("?sslMode=trust", "")
          + "?sslMode=verify-full&serverSslCert=" + pki.caFile(), source.rootUser(), source.rootPassword(),
          "SHOW SESSION STATUS LIKE 'Ssl_version'", 2)).startsWith("TLSv1.");
      String targetUrl = "jdbc:postgresql://127.0.0.1:" + target.port() + "/" + targetDb + "?sslmode=verify-full&sslrootcert="
          + pki.caFile();
      assertThat(sslInUse(SqlDialect.POSTGRESQL, targetUrl, target.user(), "",
          "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", 1)).isEqualTo("t");

      Path token = Files.writeString(dir.resolve("token"), TOKEN + "\n");
      Path replication = Files.writeString(dir.resolve("repl.pw"), replicationPassword + "\n");
      Relay relay = new Relay(RelayConfig.parse("""
          source:
            partitions: 1
            mysql:
              source: shop
              host: 127.0.0.1
              port: %d
              user: %s
              passwordFile: %s
              serverId: 7301
              include: ['shop.*']
              heartbeatInterval: 300ms
              tls: {mode: verify-identity, caFile: %s}
          buffer: {capacity: 64MiB, maxWindow: 8MiB}
          http:
            port: 0
            ioThreads: 1
            tls: {certFile: %s, keyFile: %s, clientCaFile: %s}
            auth:
              tokens:
                - {name: warehouse, tokenFile: %s, sources: [shop]}
          """.formatted(source.port(), source.replicationUser(), replication, pki.caFile(), relayCert.certFile(),
          relayCert.keyFile(), pki.caFile(), token), "tls relay"), Clock.systemUTC());
      try (relay) {
        relay.start();
        URI uri = URI.create("https://127.0.0.1:" + relay.port());
        ConsumerConfig config = ConsumerConfig.builder("shop").relay(uri.toString()).group("tls").partitions(0)
            .batchMaxWait(Duration.ofMillis(5))
            .tls(new ConsumerConfig.Tls(pki.caFile().toString(), consumerCert.certFile().toString(),
                consumerCert.keyFile().toString()))
            .auth(new ConsumerConfig.Auth(token.toString(), null)).build();
        Path targetPassword = Files.writeString(dir.resolve("target.pw"), "unused-with-trust\n");
        JdbcTargetConfig jdbc = new JdbcTargetConfig(targetUrl, target.user(), targetPassword, null, null, null, null, null,
            null);
        try (JdbcService service = JdbcService.start(config, jdbc, new SimpleMeterRegistry());
            GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(service.store())
                .handler(service.applier()).build().start()) {
          for (int i = 1; i <= 20; i++) {
            source.execute("shop", "INSERT INTO customers VALUES (" + i + ", 'c" + i + "')");
          }
          source.execute("shop", "UPDATE customers SET name = 'changed' WHERE id <= 5");
          await().atMost(Duration.ofSeconds(60)).until(() -> count(target, targetDb,
              "SELECT count(*) FROM shop.customers WHERE name = 'changed' OR id > 5") == 20);
          assertThat(consumer.status(0).relay()).isEqualTo(uri);
          HttpClient http = HttpClient.newBuilder().sslContext(RelayAccess.of(config).jdkContext()).build();
          for (String path : List.of("/v1/sources", "/metrics")) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri.resolve(path))
                .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            shown.append(response.body());
          }
        }
      }
    } finally {
      logs.close();
    }
    shown.append(logs.text());
    assertThat(logs.lineCount()).isPositive();
    assertThat(shown.toString()).contains("shop").doesNotContain(TOKEN).doesNotContain(replicationPassword)
        .doesNotContain(relayCert.keyLine()).doesNotContain(consumerCert.keyLine());
  }

  /** The value of {@code query}'s column {@code column} on a connection made with {@code url}. */
  private static String sslInUse(SqlDialect dialect, String url, String user, String password, String query, int column)
      throws SQLException {
    try (HikariDataSource pool = JdbcTargets.pool(dialect, url, user, password, 1);
        Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
      assertThat(rs.next()).as(query).isTrue();
      return rs.getString(column);
    }
  }

  private static long count(PrivatePostgres db, String database, String sql) throws SQLException {
    try (Connection c = db.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
