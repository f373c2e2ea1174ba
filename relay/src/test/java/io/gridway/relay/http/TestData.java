package io.gridway.relay.http;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Transactions for HTTP tests: event ids {@code scn * 100,000 + i}, chosen partitions and payload sizes. */
final class TestData {
  static final TableSchema TABLE = TableSchema.of("src", "db", "items", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.text("payload", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));
  static final TableSchema OTHER = TableSchema.of("src", "db", "others", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.text("payload", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));
  private static final String TEXT;

  static {
    StringBuilder text = new StringBuilder();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 64 * 1024 + 64 * 1024; i++) {
      text.append((char) ('a' + random.nextInt(26)));
    }
    TEXT = text.toString();
  }

  private TestData() {}

  static long id(long scn, int index) {
    return scn * 100_000 + index;
  }

  /** A transaction with one event per given partition, each with {@code payload} characters. */
  static Transaction transaction(long scn, int payload, int... partitions) {
    List<ChangeEvent> events = new ArrayList<>();
    for (int i = 0; i < partitions.length; i++) {
      TableSchema table = i % 3 == 2 ? OTHER : TABLE;
      Row row = Row.of(table, id(scn, i), TEXT.substring(i % 1000, i % 1000 + payload));
      events.add(ChangeEvent.insert(table, row, new Scn(scn), scn * 1000, partitions[i]));
    }
    return new Transaction(new Scn(scn), scn * 1000, new SourcePosition.Generated(scn), "", events);
  }

  /** A transaction of {@code count} events over partitions 0..partitionCount-1, drawn from {@code random}. */
  static Transaction random(long scn, int count, int payload, int partitionCount, SplittableRandom random) {
    int[] partitions = new int[count];
    for (int i = 0; i < count; i++) {
      partitions[i] = random.nextInt(partitionCount);
    }
    return transaction(scn, payload, partitions);
  }
}
