package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import io.gridway.core.event.SourcePosition;
import io.gridway.fetcher.mysql.MysqlFetcherConfig.Endpoint;
import io.gridway.fetcher.mysql.MysqlFetcherConfig.ScnMode;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code scn}, {@code hosts} and {@code gtidDomain} keys, and positions of the other rule refused at start. */
class ScnConfigTest {
  private static final String BASE = "source: s\nuser: u\npasswordEnv: X\nserverId: 7\n";

  @Test
  void scnIsFileByDefaultAndGtidFollowsDomainZeroUnlessTold() {
    MysqlFetcherConfig byFile = parse(BASE + "host: db1\n");
    assertThat(byFile.scn()).isEqualTo(ScnMode.FILE);
    assertThat(byFile.gtidDomain()).isNull();
    assertThat(byFile.endpoints()).containsExactly(new Endpoint("db1", 3306));
    MysqlFetcherConfig byGtid = parse(BASE + "hosts: [db1:3307, 'db2']\nscn: gtid\n");
    assertThat(byGtid.gtidDomain()).isZero();
    assertThat(byGtid.endpoints()).containsExactly(new Endpoint("db1", 3307), new Endpoint("db2", 3306));
    assertThat(byGtid.at(new Endpoint("db2", 3306))).satisfies(c -> {
      assertThat(c.host()).isEqualTo("db2");
      assertThat(c.port()).isEqualTo(3306);
      assertThat(c.scn()).isEqualTo(ScnMode.GTID);
    });
    assertThat(parse(BASE + "host: db1\nscn: gtid\ngtidDomain: 4\n").gtidDomain()).isEqualTo(4);
    // a copy keeps everything: the with-methods pass the defaults back in
    assertThat(byGtid.withServerId(8).withHeartbeatInterval(java.time.Duration.ofSeconds(1)).endpoints())
        .isEqualTo(byGtid.endpoints());
  }

  @Test
  void severalHostsWithoutGtidScnsAndOtherMistakesAreRefusedNamingTheKey() {
    assertThat(reason(BASE + "hosts: [db1, db2]\n")).contains("needs scn: gtid");
    assertThat(reason(BASE + "host: db1\nhosts: [db1, db2]\nscn: gtid\n")).isEqualTo("set host (and port) or hosts, not both");
    assertThat(reason(BASE + "hosts: [db1, 'db1:3306']\nscn: gtid\n")).contains("hosts[1]: db1:3306 is listed twice");
    assertThat(reason(BASE + "hosts: [db1, 'db2:x']\nscn: gtid\n")).contains("hosts[1]: the port in 'db2:x' is not a number");
    assertThat(reason(BASE + "hosts: [db1, db2]\nscn: gtid\nstart: mariadb-bin.000042:1234\n"))
        .contains("start: mariadb-bin.000042:1234 is a position in one server's binlog files")
        .contains("start at end, earliest or gtid:");
    assertThat(parse(BASE + "host: db1\nscn: gtid\nstart: mariadb-bin.000042:1234\n").start())
        .as("one host: the file is that server's").isEqualTo("mariadb-bin.000042:1234");
    assertThat(reason(BASE + "hosts: [':3306']\nscn: gtid\n")).contains("hosts[0]").contains("names no host");
    assertThat(reason(BASE + "host: db1\ngtidDomain: 1\n")).isEqualTo("gtidDomain: only with scn: gtid");
    assertThat(reason(BASE + "host: db1\nscn: lsn\n")).contains("lsn");
  }

  @Test
  void aStoredPositionOfTheOtherRuleIsRefusedAtStartWithWhatToDo() {
    MysqlFetcherConfig byGtid = parse(BASE + "hosts: ['127.0.0.1:1', '127.0.0.1:2']\nscn: gtid\n");
    try (MysqlBinlogFetcher fetcher = new MysqlBinlogFetcher(byGtid, Clock.systemUTC(), Sleeper.SYSTEM, Map.of("X", "pw"))) {
      assertThatThrownBy(() -> fetcher.start(new SourcePosition.Binlog("mariadb-bin.000003", 400, "0-1-9"), new RecordingSink()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("mariadb-bin.000003:400 gtid=0-1-9 was written under scn: file")
          .hasMessageContaining("configured with scn: gtid").hasMessageContaining("docs/scn.md");
    }
    MysqlFetcherConfig byFile = parse(BASE + "host: 127.0.0.1\nport: 1\n");
    try (MysqlBinlogFetcher fetcher = new MysqlBinlogFetcher(byFile, Clock.systemUTC(), Sleeper.SYSTEM, Map.of("X", "pw"))) {
      assertThatThrownBy(() -> fetcher.start(SourcePosition.Binlog.ofGtidSet("0-1-9"), new RecordingSink()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("gtid=0-1-9 was written under scn: gtid, but the source is configured with scn: file");
    }
  }

  @Test
  void withNoHostAnsweringThereIsNoPrimaryAndTheMessageSaysWhatEachHostDid() {
    MysqlFetcherConfig byGtid = parse(BASE + "hosts: ['127.0.0.1:1', '127.0.0.1:2']\nscn: gtid\nconnectTimeout: 1s\n");
    PrimaryFinder finder = new PrimaryFinder(byGtid, Secret.resolve(byGtid, Map.of("X", "pw")));
    assertThatThrownBy(finder::find).isInstanceOf(PrimaryFinder.NoPrimary.class)
        .hasMessageStartingWith("no primary among the source's hosts: 127.0.0.1:1 does not answer (")
        .hasMessageContaining("; 127.0.0.1:2 does not answer (");
  }

  private static MysqlFetcherConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "relay.yml", MysqlFetcherConfig.class);
  }

  private static String reason(String yaml) {
    try {
      parse(yaml);
    } catch (ConfigException e) {
      return e.reason();
    }
    throw new AssertionError("accepted: " + yaml);
  }

}
