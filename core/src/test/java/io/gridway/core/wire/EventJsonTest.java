package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TableSchema S = TableSchema.of("orders-db", "shop", "things", List.of(
      Column.unsigned("id", ColumnType.BIGINT).notNull(), Column.decimal("price", 65, 30), Column.of("f", ColumnType.FLOAT),
      Column.of("d", ColumnType.DOUBLE), Column.text("name", ColumnType.VARCHAR, "utf8mb4"), Column.of("doc", ColumnType.JSON),
      Column.of("bin", ColumnType.BLOB), Column.of("day", ColumnType.DATE), Column.temporal("at", ColumnType.DATETIME, 6),
      Column.temporal("t", ColumnType.TIME, 6), Column.temporal("ts", ColumnType.TIMESTAMP, 6), Column.bit("bits", 64),
      Column.of("y", ColumnType.YEAR)), List.of("id"));

  private static JsonNode render(Object... values) throws Exception {
    ChangeEvent e = ChangeEvent.insert(S, Row.of(S, values), new Scn(-1), 1_714_566_896_789_012L, 3);
    return JSON.readTree(EventJson.toJson(e));
  }

  @Test
  void valuesAreRenderedExactly() throws Exception {
    JsonNode j = render(WireArbitraries.TWO_TO_64_MINUS_1, new BigDecimal("-0.000000000000000000000000000001"), Float.NaN,
        Double.NEGATIVE_INFINITY, "😀 \"quoted\"", "{\"a\": [1, 2]}", Bytes.wrap(new byte[] {(byte) 0xFB, (byte) 0xFF}),
        LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 1, 1, 0, 0), Duration.ofHours(-30).minusSeconds(1),
        Instant.parse("2024-05-01T10:00:00.000001Z"), -1L, 1901L);
    assertThat(j.get("scn").asText()).isEqualTo("18446744073709551615");
    assertThat(j.get("commitTime").asText()).isEqualTo("2024-05-01T12:34:56.789012Z");
    assertThat(j.get("op").asText()).isEqualTo("insert");
    assertThat(j.get("partition").asInt()).isEqualTo(3);
    assertThat(j.get("key").get("id").bigIntegerValue()).isEqualTo(WireArbitraries.TWO_TO_64_MINUS_1);
    assertThat(j.get("before").isNull()).isTrue();
    assertThat(j.get("ddl").isNull()).isTrue();
    JsonNode a = j.get("after");
    assertThat(a.get("id").isIntegralNumber()).isTrue();
    assertThat(a.get("id").bigIntegerValue()).isEqualTo(WireArbitraries.TWO_TO_64_MINUS_1);
    assertThat(a.get("price").textValue()).isEqualTo("-0.000000000000000000000000000001");
    assertThat(a.get("f").textValue()).isEqualTo("NaN");
    assertThat(a.get("d").textValue()).isEqualTo("-Infinity");
    assertThat(a.get("name").textValue()).isEqualTo("😀 \"quoted\"");
    assertThat(a.get("doc").isObject()).isTrue();
    assertThat(a.get("doc").get("a").get(1).asInt()).isEqualTo(2);
    assertThat(a.get("bin").textValue()).isEqualTo("+/8=");
    assertThat(a.get("day").textValue()).isEqualTo("2024-02-29");
    assertThat(a.get("at").textValue()).isEqualTo("2024-01-01T00:00:00");
    assertThat(a.get("t").textValue()).isEqualTo("-30:00:01");
    assertThat(a.get("ts").textValue()).isEqualTo("2024-05-01T10:00:00.000001Z");
    assertThat(a.get("bits").bigIntegerValue()).isEqualTo(WireArbitraries.TWO_TO_64_MINUS_1);
    assertThat(a.get("y").asInt()).isEqualTo(1901);
  }

  @Test
  void zeroDatesNullsAndInvalidJsonAreRenderedAsText() throws Exception {
    JsonNode a = render(BigDecimal.ONE.toBigInteger(), null, -0.0f, 1e300, "", "{not json", Bytes.EMPTY,
        ZeroDate.date(2024, 0, 0), new ZeroDate(ColumnType.DATETIME, 0, 0, 0, 1, 2, 3, 4), null,
        ZeroDate.zero(ColumnType.TIMESTAMP), 0L, 0L).get("after");
    assertThat(a.get("price").isNull()).isTrue();
    assertThat(a.get("f").isNumber()).isTrue();
    assertThat(a.get("f").floatValue()).isEqualTo(-0.0f);
    assertThat(a.get("d").doubleValue()).isEqualTo(1e300);
    assertThat(a.get("name").textValue()).isEmpty();
    assertThat(a.get("doc").textValue()).isEqualTo("{not json");
    assertThat(a.get("bin").textValue()).isEmpty();
    assertThat(a.get("day").textValue()).isEqualTo("2024-00-00");
    assertThat(a.get("at").textValue()).isEqualTo("0000-00-00 01:02:03.000004");
    assertThat(a.get("t").isNull()).isTrue();
    assertThat(a.get("ts").textValue()).isEqualTo("0000-00-00 00:00:00");
  }

  @Test
  void aJsonColumnHoldingTwoValuesIsNotEmbedded() throws Exception {
    JsonNode a = render(BigDecimal.ONE.toBigInteger(), null, 1f, 1d, "", "{} {}", Bytes.EMPTY, null, null, null, null, null, null)
        .get("after");
    assertThat(a.get("doc").textValue()).isEqualTo("{} {}");
  }

  @Test
  void aTransactionListsItsPositionAndEvents() throws Exception {
    ChangeEvent e = ChangeEvent.delete(S, Row.of(S, BigDecimal.TEN.toBigInteger(), null, null, null, null, null, null, null, null,
        null, null, null, null), new Scn(7), 0, 0);
    Transaction t = new Transaction(new Scn(7), 0, new SourcePosition.Binlog("mysql-bin.000003", 99, "u:1-5"), "u:5", List.of(e));
    JsonNode j = JSON.readTree(EventJson.toJson(t));
    assertThat(j.get("gtid").textValue()).isEqualTo("u:5");
    assertThat(j.get("position").get("kind").textValue()).isEqualTo("binlog");
    assertThat(j.get("position").get("offset").asLong()).isEqualTo(99);
    assertThat(j.get("events").get(0).get("op").textValue()).isEqualTo("delete");
    assertThat(j.get("events").get(0).get("key").get("id").asInt()).isEqualTo(10);
    Transaction none = new Transaction(new Scn(7), 0, null, "", List.of(e));
    assertThat(JSON.readTree(EventJson.toJson(none)).get("position").isNull()).isTrue();
  }
}
