package io.gridway.policy.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gridway.core.event.Bytes;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the JSON row an operator types into a table schema and a row, and a row back into JSON.
 * Column types are inferred from the JSON values: integers are BIGINT, other numbers DOUBLE,
 * strings VARCHAR, booleans TINYINT (1/0), objects and arrays JSON, null a nullable VARCHAR. Good
 * enough to see what a policy does; a relay has the real schema. Stateless and thread-safe.
 */
final class JsonRows {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonRows() {}

  /** The columns of one or two JSON objects (their keys, first object's order), typed by their values. */
  static Map<String, JsonNode> object(String json, String what) {
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(what + " is not JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject() || node.isEmpty()) {
      throw new IllegalArgumentException(what + " must be a JSON object with at least one column");
    }
    Map<String, JsonNode> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      values.put(e.getKey(), e.getValue());
    }
    return values;
  }

  static TableSchema schema(String database, String table, Map<String, JsonNode> sample, Map<String, JsonNode> other, List<String> key,
      Map<String, String> declared) {
    for (String name : declared.keySet()) {
      if (!sample.containsKey(name)) {
        throw new IllegalArgumentException("--type " + name + ": the row has no such column");
      }
    }
    List<Column> columns = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : sample.entrySet()) {
      JsonNode value = e.getValue().isNull() && other != null && other.containsKey(e.getKey()) ? other.get(e.getKey()) : e.getValue();
      String type = declared.get(e.getKey());
      columns.add(type == null ? column(e.getKey(), value) : declared(e.getKey(), type));
    }
    return TableSchema.of("explain", database, table, columns, key);
  }

  /** A column of a declared type: integer, floating-point and textual types (what explain can fill from JSON). */
  private static Column declared(String name, String typeName) {
    ColumnType type;
    try {
      type = ColumnType.valueOf(typeName.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--type " + name + "=" + typeName + ": not a column type");
    }
    if (type.isInteger() || type == ColumnType.DOUBLE || type == ColumnType.FLOAT) {
      return Column.of(name, type);
    }
    if (type.isTextual() && type != ColumnType.ENUM && type != ColumnType.SET) {
      return Column.text(name, type, "utf8mb4");
    }
    throw new IllegalArgumentException("--type " + name + "=" + typeName + ": explain supports integer, FLOAT, DOUBLE and textual types");
  }

  private static Column column(String name, JsonNode value) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return Column.of(name, ColumnType.BIGINT);
    }
    if (value.isNumber()) {
      return Column.of(name, ColumnType.DOUBLE);
    }
    if (value.isBoolean()) {
      return Column.of(name, ColumnType.TINYINT);
    }
    if (value.isObject() || value.isArray()) {
      return Column.text(name, ColumnType.JSON, "utf8mb4");
    }
    return Column.text(name, ColumnType.VARCHAR, "utf8mb4");
  }

  static Row row(TableSchema schema, Map<String, JsonNode> values) {
    if (!values.keySet().equals(new java.util.HashSet<>(names(schema)))) {
      throw new IllegalArgumentException("--before and --row must have the same columns");
    }
    Object[] out = new Object[schema.columnCount()];
    for (int i = 0; i < out.length; i++) {
      Column c = schema.column(i);
      JsonNode v = values.get(c.name());
      out[i] = v.isNull() ? null : switch (c.type()) {
        case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT -> {
          if (v.isBoolean()) {
            yield v.asBoolean() ? 1L : 0L;
          }
          if (!v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("column " + c.name() + ": expected an integer, got " + v);
          }
          yield v.asLong();
        }
        case DOUBLE -> v.asDouble();
        case FLOAT -> (float) v.asDouble();
        case JSON -> v.toString();
        default -> v.isTextual() ? v.asText() : v.toString();
      };
    }
    return Row.of(schema, out);
  }

  private static List<String> names(TableSchema schema) {
    List<String> names = new ArrayList<>();
    schema.columns().forEach(c -> names.add(c.name()));
    return names;
  }

  /** A row as a JSON object, binary values in hex, temporal values in ISO-8601 text. */
  static String json(TableSchema schema, Row row) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < schema.columnCount(); i++) {
      String name = schema.column(i).name();
      Object v = row.get(i);
      if (v == null) {
        node.putNull(name);
      } else if (v instanceof Long l) {
        node.put(name, l);
      } else if (v instanceof Double d) {
        node.put(name, d);
      } else if (v instanceof Float f) {
        node.put(name, f);
      } else if (v instanceof BigDecimal d) {
        node.put(name, d);
      } else if (v instanceof BigInteger b) {
        node.put(name, b);
      } else if (v instanceof Bytes b) {
        node.put(name, b.toString());
      } else {
        node.put(name, v.toString());
      }
    }
    return node.toString();
  }
}
