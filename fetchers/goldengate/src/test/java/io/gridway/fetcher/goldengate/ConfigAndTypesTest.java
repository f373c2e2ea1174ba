package io.gridway.fetcher.goldengate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.config.ConfigException;
import io.gridway.core.config.ConfigLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigAndTypesTest {

  private static GoldenGateConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "relay.yaml", GoldenGateConfig.class);
  }

  @Test
  void yamlLoadsWithDefaults() {
    GoldenGateConfig c = parse("directory: /gg/dirdat\nfilePrefix: ea\nformat: json\nschemaDirectory: /gg/dirdef\n");
    assertThat(c.sequenceDigits()).isEqualTo(9);
    assertThat(c.fileSuffix()).isEmpty();
    assertThat(c.csnToken()).isEqualTo("TK-CSN");
    assertThat(c.xidToken()).isEqualTo("TK-XID");
    assertThat(c.csnRegression()).isEqualTo("fail");
    assertThat(c.pollInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.maxTransactionBytes().bytes()).isEqualTo(256L << 20);
    assertThat(c.trailFormat()).isEqualTo(GoldenGateConfig.Format.JSON);
    assertThat(TrailFiles.of(c).name(42)).isEqualTo("ea000000042");
    assertThat(TrailFiles.of(c).sequenceOf("ea000000042")).isEqualTo(42);
    assertThat(TrailFiles.of(c).sequenceOf("eb000000042")).isEqualTo(-1);
  }

  @Test
  void everyInvalidSettingIsRejectedNamingItsKey() {
    String base = "directory: /d\nfilePrefix: ea\nschemaDirectory: /s\n";
    assertThatThrownBy(() -> parse(base + "format: avro\n")).isInstanceOf(ConfigException.class).hasMessageContaining("format 'avro' is not one of xml, json");
    assertThatThrownBy(() -> parse("filePrefix: ea\nformat: xml\nschemaDirectory: /s\n")).hasMessageContaining("directory is required");
    assertThatThrownBy(() -> parse(base + "format: xml\ncsnRegression: ignore\n")).hasMessageContaining("csnRegression 'ignore' is not one of fail, skip");
    assertThatThrownBy(() -> parse(base + "format: xml\nsequenceDigits: 11\n")).hasMessageContaining("sequenceDigits 11 out of range 1..10");
    assertThatThrownBy(() -> parse(base + "format: xml\npollInterval: 0s\n")).hasMessageContaining("pollInterval must be at least 1ms");
    assertThatThrownBy(() -> parse(base + "format: xml\nmaxTransactionBytes: 10\n")).hasMessageContaining("maxTransactionBytes");
    assertThatThrownBy(() -> parse(base + "format: xml\nfirstSequence: -1\n")).hasMessageContaining("firstSequence -1 out of range");
    assertThatThrownBy(() -> parse("directory: /d\nfilePrefix: x/ea\nformat: xml\nschemaDirectory: /s\n")).hasMessageContaining("filePrefix");
    assertThatThrownBy(() -> parse(base + "format: xml\ncsnTokn: X\n")).hasMessageContaining("unknown key 'csnTokn'");
  }

  @Test
  void unsupportedOrOutOfRangeOracleTypesAreNamed() {
    assertThatThrownBy(() -> OracleTypes.map("G", "SDO_GEOMETRY")).hasMessageContaining("column G: Oracle type 'SDO_GEOMETRY' is not supported");
    assertThatThrownBy(() -> OracleTypes.map("N", "NUMBER(39)")).hasMessageContaining("p in 1..38");
    assertThatThrownBy(() -> OracleTypes.map("N", "NUMBER(38,31)")).hasMessageContaining("exceeds the 30 decimal places");
    assertThatThrownBy(() -> OracleTypes.map("T", "TIMESTAMP(10)")).hasMessageContaining("out of range 0..9");
    assertThatThrownBy(() -> OracleTypes.map("V", "VARCHAR2(x)")).hasMessageContaining("column V: 'VARCHAR2(x)' has a malformed size 'X'");
  }

  @Test
  void valuesThatDoNotFitTheirColumnAreRejected() {
    assertThatThrownBy(() -> OracleTypes.map("N", "NUMBER(2)").decoder().fromText("100")).hasMessageContaining("more than the column's 2 digits");
    assertThatThrownBy(() -> OracleTypes.map("N", "NUMBER(5,2)").decoder().fromText("1000.1")).hasMessageContaining("exceeds DECIMAL(5,2)");
    assertThatThrownBy(() -> OracleTypes.map("D", "DATE").decoder().fromText("2024-13-01 00:00:00")).hasMessageContaining("is not a date-time");
    assertThatThrownBy(() -> OracleTypes.map("D", "DATE").decoder().fromText("2024-01-01 00:00:00 +01:00")).hasMessageContaining("text after the time");
    assertThatThrownBy(() -> OracleTypes.map("B", "BLOB").decoder().fromText("**")).hasMessageContaining("not Base64");
    assertThatThrownBy(() -> OracleTypes.map("F", "BINARY_DOUBLE").decoder().fromText("one")).hasMessageContaining("not a floating-point number");
  }

  @Test
  void commitTimesAreMicrosecondsSinceTheEpoch() {
    assertThat(OracleTemporal.epochMicros("1970-01-01 00:00:01.000002")).isEqualTo(1_000_002L);
    assertThat(OracleTemporal.epochMicros("1970-01-01T01:00:00+01:00")).isZero();
  }
}
