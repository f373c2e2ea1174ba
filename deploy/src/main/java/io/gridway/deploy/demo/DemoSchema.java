package io.gridway.deploy.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo's tables: the same three in the source database {@value #DATABASE} (MariaDB) and the target schema of
 * the same name (PostgreSQL, where the JDBC applier writes {@code database.table} as {@code schema.table}). Every
 * table has a {@code BIGINT} key {@code id}; the other columns are text, integers and money, whose values both
 * servers return as the same Java values (so one checksum works on both sides).
 */
final class DemoSchema {
  /** The source database and the target schema. */
  static final String DATABASE = "shop";

  /** What a column holds; the workload draws values by kind. */
  enum Kind {
    TEXT("VARCHAR(64)", "VARCHAR(64)"),
    INT("INT", "INT"),
    MONEY("DECIMAL(12,2)", "NUMERIC(12,2)");

    final String mariaDbType;
    final String postgresType;

    Kind(String mariaDbType, String postgresType) {
      this.mariaDbType = mariaDbType;
      this.postgresType = postgresType;
    }
  }

  /** A column besides the key. */
  record Column(String name, Kind kind) {}

  /** A table: its key is {@code id}. */
  record Table(String name, List<Column> columns) {
    /** {@code id, c1, c2, ...}. */
    String columnList() {
      return "id, " + String.join(", ", columns.stream().map(Column::name).toList());
    }
  }

  static final List<Table> TABLES = List.of(
      new Table("customers", List.of(new Column("name", Kind.TEXT), new Column("city", Kind.TEXT),
          new Column("credit", Kind.MONEY))),
      new Table("orders", List.of(new Column("customer_id", Kind.INT), new Column("status", Kind.TEXT),
          new Column("total", Kind.MONEY), new Column("items", Kind.INT))),
      new Table("stock", List.of(new Column("title", Kind.TEXT), new Column("quantity", Kind.INT),
          new Column("price", Kind.MONEY))));

  private DemoSchema() {}

  /** Creates the database and tables in MariaDB. */
  static List<String> mariaDbDdl() {
    List<String> sql = new ArrayList<>(List.of("CREATE DATABASE " + DATABASE));
    for (Table t : TABLES) {
      sql.add(create(t, false));
    }
    return sql;
  }

  /** Creates the schema and tables in PostgreSQL. */
  static List<String> postgresDdl() {
    List<String> sql = new ArrayList<>(List.of("CREATE SCHEMA " + DATABASE));
    for (Table t : TABLES) {
      sql.add(create(t, true));
    }
    return sql;
  }

  private static String create(Table t, boolean postgres) {
    StringBuilder sql = new StringBuilder("CREATE TABLE " + DATABASE + "." + t.name() + " (id BIGINT PRIMARY KEY");
    for (Column c : t.columns()) {
      sql.append(", ").append(c.name()).append(' ').append(postgres ? c.kind().postgresType : c.kind().mariaDbType);
    }
    return sql.append(')').toString();
  }
}
