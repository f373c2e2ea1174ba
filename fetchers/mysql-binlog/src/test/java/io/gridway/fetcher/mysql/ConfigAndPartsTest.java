package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetchBackoff;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config record and the small parts: start positions, table globs, GTID sets, backoff, secrets. */
class ConfigAndPartsTest {
  @TempDir Path dir;

  @Test
  void yamlConfigTakesDefaultsForWhatItOmits() {
    MysqlFetcherConfig config = ConfigLoader.parse("""
        source: shop
        host: db1
        user: gridway
        passwordEnv: DB1_PASSWORD
        serverId: 5401
        include: [shop.*]
        """, "relay.yml", MysqlFetcherConfig.class);
    assertThat(config.port()).isEqualTo(3306);
    assertThat(config.start()).isEqualTo("end");
    assertThat(config.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.maxTransactionBytes().bytes()).isEqualTo(256L << 20);
    assertThat(config.exclude()).isEmpty();
  }

  @Test
  void badKeysAndValuesAreRejectedWithTheirLine() {
    assertThatThrownBy(() -> ConfigLoader.parse("""
        source: shop
        host: db1
        user: gridway
        passwordEnv: DB1_PASSWORD
        password: secret
        serverId: 1
        """, "relay.yml", MysqlFetcherConfig.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.line()).isEqualTo(5);
          assertThat(e.reason()).contains("unknown key 'password'").contains("passwordFile");
        });
    assertThatThrownBy(() -> ConfigLoader.parse("source: s\nhost: h\nuser: u\npasswordEnv: X\nserverId: 7\nstart: somewhere\n",
        "relay.yml", MysqlFetcherConfig.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.reason()).contains("is not a start position"));
    assertThatThrownBy(() -> ConfigLoader.parse("source: s\nhost: h\nuser: u\npasswordEnv: X\npasswordFile: /f\nserverId: 7\n",
        "relay.yml", MysqlFetcherConfig.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.reason()).isEqualTo("set exactly one of passwordFile and passwordEnv"));
    assertThatThrownBy(() -> ConfigLoader.parse("source: s\nhost: h\nuser: u\npasswordEnv: X\nserverId: 7\ninclude: [orders]\n",
        "relay.yml", MysqlFetcherConfig.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.reason()).contains("'orders' is not a db.table glob"));
  }

  @Test
  void thePasswordComesFromAFileOrTheEnvironmentAndNeverPrints() throws Exception {
    Path file = dir.resolve("pw");
    Files.writeString(file, "s3cret\n");
    MysqlFetcherConfig fromFile = MysqlFetcherConfig.of("s", "h", 3306, "u", file, 9);
    Secret secret = Secret.resolve(fromFile, Map.of());
    assertThat(secret.reveal()).isEqualTo("s3cret");
    assertThat(secret.toString()).doesNotContain("s3cret");
    assertThat(fromFile.toString()).doesNotContain("s3cret");
    MysqlFetcherConfig fromEnv = new MysqlFetcherConfig("s", "h", null, "u", null, "DB_PW", 9L, null, null, null, null, null, null, null);
    assertThat(Secret.resolve(fromEnv, Map.of("DB_PW", "env-pw")).reveal()).isEqualTo("env-pw");
    assertThatThrownBy(() -> Secret.resolve(fromEnv, Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("environment variable DB_PW (passwordEnv) is not set; export it before starting the relay");
  }

  @Test
  void startPositionsParse() {
    assertThat(StartPosition.parse("end").kind()).isEqualTo(StartPosition.Kind.END);
    assertThat(StartPosition.parse("EARLIEST").kind()).isEqualTo(StartPosition.Kind.EARLIEST);
    assertThat(StartPosition.parse("mariadb-bin.000042:1234")).isEqualTo(
        new StartPosition(StartPosition.Kind.FILE, "mariadb-bin.000042", 1234, ""));
    assertThat(StartPosition.parse("gtid:0-1-42,1-2-7").gtidSet()).isEqualTo("0-1-42,1-2-7");
    assertThat(StartPosition.parse("gtid:3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5").gtidSet())
        .isEqualTo("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5");
    assertThatThrownBy(() -> StartPosition.parse("binlog:12")).hasMessageContaining("numeric suffix");
    assertThatThrownBy(() -> StartPosition.parse("mariadb-bin.000001:2")).hasMessageContaining("offset out of range");
  }

  @Test
  void tableGlobsMatchDatabaseAndTableSeparately() {
    TableFilter filter = TableFilter.of(List.of("shop.*", "*.audit_?"), List.of("shop.tmp_*"));
    assertThat(filter.captures("shop", "orders")).isTrue();
    assertThat(filter.captures("shop", "tmp_1")).isFalse();
    assertThat(filter.captures("crm", "audit_1")).isTrue();
    assertThat(filter.captures("crm", "audit_10")).isFalse();
    assertThat(filter.captures("shopping", "orders")).isFalse();
    assertThat(TableFilter.of(List.of(), List.of("a.b")).captures("x", "y")).isTrue();
  }

  @Test
  void gtidSetsFollowTheirFlavour() {
    GtidTracker maria = new GtidTracker("0-1-10,1-2-5");
    maria.add("0-1-11");
    assertThat(maria.current()).isEqualTo("0-1-11,1-2-5");
    GtidTracker unknown = new GtidTracker("");
    unknown.add("0-1-3"); // a MariaDB GTID states its whole domain
    assertThat(unknown.current()).isEqualTo("0-1-3");
    unknown.add("0-1-4"); // one domain: the set is its last GTID
    assertThat(unknown.current()).isEqualTo("0-1-4");
    unknown.add("12-1-9");
    unknown.add("0-2-5");
    assertThat(unknown.current()).isEqualTo("0-2-5,12-1-9"); // ordered by domain as a number
    GtidTracker mysql = new GtidTracker("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
    mysql.add("3e11fa47-71ca-11e1-9e33-c80aa9429562:6");
    assertThat(mysql.current()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-6");
    GtidTracker mysqlUnknown = new GtidTracker("");
    mysqlUnknown.add("3e11fa47-71ca-11e1-9e33-c80aa9429562:6"); // one interval says nothing of the history
    assertThat(mysqlUnknown.current()).isEmpty();
  }

  @Test
  void backoffDoublesUpToItsCapAndResets() {
    FetchBackoff backoff = new FetchBackoff(Duration.ofMillis(100), Duration.ofMillis(500));
    assertThat(List.of(backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()))
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(500),
            Duration.ofMillis(500));
    backoff.reset();
    assertThat(backoff.next()).isEqualTo(Duration.ofMillis(100));
  }
}
