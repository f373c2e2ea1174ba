package io.gridway.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  enum Mode { LONG_POLL, STREAM }

  record Http(String host, int port) {
    Http {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port " + port + " out of range 0..65535");
      }
    }
  }

  record Sample(String name, Http http, ByteSize buffer, Duration timeout, Mode mode, List<String> tables) {}

  @Test
  void readsNestedRecordsSizesDurationsAndEnums() {
    Sample sample = ConfigLoader.parse("""
        name: relay-1
        http: {host: 127.0.0.1, port: 8080}
        buffer: 64MiB
        timeout: 1500ms
        mode: STREAM
        tables: [shop.orders, shop.items]
        """, "relay.yml", Sample.class);

    assertThat(sample.http().port()).isEqualTo(8080);
    assertThat(sample.buffer().bytes()).isEqualTo(64L << 20);
    assertThat(sample.timeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(sample.mode()).isEqualTo(Mode.STREAM);
    assertThat(sample.tables()).containsExactly("shop.orders", "shop.items");
  }

  @Test
  void unknownKeyIsRejectedWithItsLineAndTheKnownKeys() {
    assertThatThrownBy(() -> ConfigLoader.parse("""
        name: relay-1
        http:
          host: 127.0.0.1
          prot: 8080
        """, "relay.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.key()).isEqualTo("http.prot");
          assertThat(e.line()).as(e.getMessage()).isEqualTo(4);
          assertThat(e.getMessage()).startsWith("relay.yml:4:").contains("unknown key 'prot'").contains("known keys: host, port");
        });
  }

  record Secret(String user, String passwordFile, String passwordEnv) {
    Secret {
      if ((passwordFile == null) == (passwordEnv == null)) {
        throw new IllegalArgumentException("set exactly one of passwordFile and passwordEnv");
      }
    }
  }

  @Test
  void aMisspeltKeyIsReportedAsUnknownEvenWhenItsAbsenceFailsValidation() {
    assertThatThrownBy(() -> ConfigLoader.parse("""
        user: repl
        passwordFiel: /etc/secret
        """, "source.yml", Secret.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.reason()).startsWith("unknown key 'passwordFiel'");
          assertThat(e.line()).isEqualTo(2);
        });
  }

  @Test
  void validationFailureInARecordNamesTheKeyAndTheReason() {
    assertThatThrownBy(() -> ConfigLoader.parse("http: {host: h, port: 70000}\n", "relay.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.key()).isEqualTo("http");
          assertThat(e.reason()).isEqualTo("port 70000 out of range 0..65535");
          assertThat(e.line()).isEqualTo(1);
        });
  }

  @Test
  void wrongTypeSaysWhatWasExpected() {
    assertThatThrownBy(() -> ConfigLoader.parse("http: {host: h, port: eighty}\n", "c.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.key()).isEqualTo("http.port");
          assertThat(e.reason()).contains("a whole number");
        });
  }

  @Test
  void badSizeUnitAndBadDurationAreExplained() {
    assertThatThrownBy(() -> ConfigLoader.parse("buffer: 64 parsecs\n", "c.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.getMessage()).contains("buffer").contains("unknown size unit 'parsecs'"));
    assertThatThrownBy(() -> ConfigLoader.parse("timeout: soon\n", "c.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.getMessage()).contains("timeout").contains("not a duration"));
  }

  @Test
  void unknownEnumValueListsTheChoices() {
    assertThatThrownBy(() -> ConfigLoader.parse("mode: fast\n", "c.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.reason()).isEqualTo("'fast' is not one of long-poll, stream"));
    // the configuration's spelling ('-' for '_', any case) is accepted
    assertThat(ConfigLoader.parse("mode: Long-Poll\n", "c.yml", Sample.class).mode().name()).isEqualTo("LONG_POLL");
  }

  @Test
  void yamlSyntaxErrorGivesLineAndColumn() {
    assertThatThrownBy(() -> ConfigLoader.parse("name: relay\nhttp: \"unterminated\ntables: []\n", "c.yml", Sample.class))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.reason()).startsWith("invalid YAML");
          assertThat(e.line()).isPositive();
        });
  }

  @Test
  void duplicateKeysAreRejected() {
    assertThatThrownBy(() -> ConfigLoader.parse("name: a\nname: b\n", "c.yml", Sample.class))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("name");
  }

  @Test
  void missingAndEmptyFilesAreClearErrors(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("nope.yml"), Sample.class))
        .hasMessage(dir.resolve("nope.yml") + ": no such file");
    Path empty = Files.writeString(dir.resolve("empty.yml"), "\n");
    assertThatThrownBy(() -> ConfigLoader.load(empty, Sample.class)).hasMessageEndingWith("the configuration is empty");
  }

  @Test
  void byteSizesAcceptBinaryUnitsAndPrintCanonically() {
    assertThat(ByteSize.parse("1GiB").bytes()).isEqualTo(1L << 30);
    assertThat(ByteSize.parse("512k").bytes()).isEqualTo(512L << 10);
    assertThat(ByteSize.parse(4096).bytes()).isEqualTo(4096);
    assertThat(ByteSize.parse("1.5MiB").bytes()).isEqualTo(3L << 19);
    assertThat(new ByteSize(64L << 20)).hasToString("64MiB");
    assertThat(new ByteSize(1000)).hasToString("1000");
  }

  @Test
  void durationsAcceptOperatorUnits() {
    assertThat(DurationParser.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(DurationParser.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(DurationParser.parse("250")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationParser.parse("PT2H")).isEqualTo(Duration.ofHours(2));
  }
}
