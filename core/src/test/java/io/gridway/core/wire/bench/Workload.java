package io.gridway.core.wire.bench;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A three-table workload of ~1,100-byte rows: per table a BIGINT key, an INT, a DECIMAL(12,2), a
 * DATETIME(6), four strings of 200–300 characters (VARCHAR(255) and TEXT), a DOUBLE and a TINYINT.
 * Deterministic (fixed seed), mostly ASCII text as in typical OLTP rows.
 */
final class Workload {
  static final int EVENTS = 96;

  private Workload() {}

  static List<TableSchema> tables() {
    List<TableSchema> tables = new ArrayList<>();
    String[] names = {"orders", "customers", "shipments"};
    for (String name : names) {
      tables.add(TableSchema.of("bench-db", "shop", name, List.of(
          Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("quantity", ColumnType.INT),
          Column.decimal("amount", 12, 2),
          Column.temporal("updated_at", ColumnType.DATETIME, 6),
          new Column("title", ColumnType.VARCHAR, false, true, 255, 0, 0, "utf8mb4", List.of()),
          new Column("address", ColumnType.VARCHAR, false, true, 255, 0, 0, "utf8mb4", List.of()),
          Column.text("notes", ColumnType.TEXT, "utf8mb4"),
          new Column("tags", ColumnType.VARCHAR, false, true, 255, 0, 0, "utf8mb4", List.of()),
          Column.of("score", ColumnType.DOUBLE),
          Column.of("status", ColumnType.TINYINT)), List.of("id")));
    }
    return tables;
  }

  static List<ChangeEvent> events(List<TableSchema> tables) {
    Random random = new Random(42);
    List<ChangeEvent> events = new ArrayList<>(EVENTS);
    for (int i = 0; i < EVENTS; i++) {
      TableSchema t = tables.get(i % tables.size());
      Row row = Row.of(t,
          1_000_000L + i,
          (long) random.nextInt(1000),
          BigDecimal.valueOf(random.nextInt(100_000_000), 2),
          LocalDateTime.of(2024, 5, 1, 12, 0).plusNanos(random.nextInt(1_000_000_000) / 1000 * 1000L),
          text(random, 200 + random.nextInt(50)),
          text(random, 220 + random.nextInt(35)),
          text(random, 280 + random.nextInt(40)),
          text(random, 200 + random.nextInt(55)),
          random.nextDouble() * 1000,
          (long) random.nextInt(5));
      events.add(ChangeEvent.insert(t, row, new Scn(1_000 + i / 3), 1_714_566_896_000_000L + i, i % 16));
    }
    return events;
  }

  private static String text(Random random, int length) {
    String words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore ";
    StringBuilder text = new StringBuilder(length);
    while (text.length() < length) {
      int from = random.nextInt(words.length() - 12);
      text.append(words, from, from + 12);
    }
    text.setLength(length);
    return text.toString();
  }
}
