package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Tables, rows and policies shared by the tests. */
final class Fixtures {
  static final String KEY_ENV = "GRIDWAY_TEST_HASH_KEY";
  static final String KEY = "0123456789abcdef-test-key";
  static final long COMMIT_MICROS = 1_700_000_000_000_000L;
  static final Scn SCN = Scn.ofBinlog(3, 4096);

  /** shop.orders: ten columns of mixed types, key id. */
  static final TableSchema ORDERS = TableSchema.of("src", "shop", "orders", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(),
      Column.text("status", ColumnType.VARCHAR, "utf8mb4"),
      Column.of("amount", ColumnType.INT),
      Column.decimal("price", 10, 2),
      Column.text("email", ColumnType.VARCHAR, "utf8mb4"),
      Column.text("phone", ColumnType.VARCHAR, "utf8mb4"),
      Column.of("qty", ColumnType.SMALLINT),
      Column.of("score", ColumnType.DOUBLE),
      Column.temporal("created", ColumnType.DATETIME, 0),
      Column.text("note", ColumnType.TEXT, "utf8mb4")), List.of("id"));

  /** shop.customers: a two-column key. */
  static final TableSchema CUSTOMERS = TableSchema.of("src", "shop", "customers", List.of(
      Column.of("tenant", ColumnType.INT).notNull(),
      Column.of("id", ColumnType.BIGINT).notNull(),
      Column.text("name", ColumnType.VARCHAR, "utf8mb4"),
      Column.text("region", ColumnType.VARCHAR, "utf8mb4")), List.of("tenant", "id"));

  /** shop.audit_log: no primary key. */
  static final TableSchema AUDIT = TableSchema.of("src", "shop", "audit_log", List.of(
      Column.text("message", ColumnType.TEXT, "utf8mb4")), List.of());

  private Fixtures() {}

  static PolicyLoader loader() {
    return PolicyLoader.create()
        .withSchemas(List.of(ORDERS, CUSTOMERS, AUDIT))
        .withEnvironment(Map.of(KEY_ENV, KEY)::get);
  }

  static Policy policy(String yaml) {
    try {
      return loader().parse("test.yaml", yaml);
    } catch (PolicyException e) {
      throw new AssertionError("policy should load:\n" + e.getMessage(), e);
    }
  }

  /** The errors of a policy that must not load, one string each. */
  static List<String> errors(PolicyLoader loader, String yaml) {
    try {
      loader.parse("bad.yaml", yaml);
    } catch (PolicyException e) {
      return e.errors().stream().map(PolicyError::toString).toList();
    }
    throw new AssertionError("policy should not load");
  }

  static List<String> errors(String yaml) {
    return errors(loader(), yaml);
  }

  static Row order(long id, String status, Long amount) {
    return Row.of(ORDERS, id, status, amount, new BigDecimal("19.99"), "ann@example.com", "+49 30 1234567", 3L, 0.5,
        LocalDateTime.of(2024, 5, 1, 12, 0), "note");
  }

  static Row orderWith(int column, Object value) {
    Object[] values = order(1, "PAID", 100L).toArray();
    values[column] = value;
    return Row.of(ORDERS, values);
  }

  static ChangeEvent insert(Row after) {
    return ChangeEvent.insert(ORDERS, after, SCN, COMMIT_MICROS, 0);
  }

  static ChangeEvent insert(TableSchema schema, Object... values) {
    return ChangeEvent.insert(schema, Row.of(schema, values), SCN, COMMIT_MICROS, 0);
  }

  static ChangeEvent update(Row before, Row after) {
    return ChangeEvent.update(ORDERS, before, after, SCN, COMMIT_MICROS, 0);
  }

  static ChangeEvent delete(Row before) {
    return ChangeEvent.delete(ORDERS, before, SCN, COMMIT_MICROS, 0);
  }

  static ChangeEvent withOrigin(ChangeEvent e, String origin) {
    return new ChangeEvent(e.schema(), e.op(), e.before(), e.after(), e.ddl(), e.scn(), e.commitTimeMicros(), e.partition(), origin);
  }

  static ChangeEvent truncate(TableSchema schema) {
    return new ChangeEvent(schema, Operation.TRUNCATE, null, null, null, SCN, COMMIT_MICROS, 0, "");
  }

  static Transaction tx(ChangeEvent... events) {
    return new Transaction(SCN, COMMIT_MICROS, new SourcePosition.Binlog("mysql-bin.000003", 4096, ""), "", Arrays.asList(events));
  }
}
