package io.gridway.fetcher.goldengate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The column types of each table, read from {@code <schemaDirectory>/<OWNER.TABLE>.schema.json} the first time a
 * record names the table, and kept. The file has the shape of the JSON Schema (draft-04) the GoldenGate for Big
 * Data JSON formatter writes per table ({@code title}, {@code definitions.row.properties} in column order) plus,
 * per column, {@code oracleType} (the Oracle type, which the formatter's JSON types cannot express) and, at the
 * top, {@code primary_keys}. See README.md for an example and the type table.
 *
 * <p>Not thread-safe: the fetcher thread owns it.
 */
final class SchemaDirectory {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;
  private final String source;
  private final Map<String, TableEntry> tables = new HashMap<>();

  SchemaDirectory(Path directory, String source) {
    this.directory = directory;
    this.source = source;
  }

  /**
   * The table a record names.
   *
   * @throws MalformedRecordException when its schema file is missing or wrong, naming the file and the reason
   */
  TableEntry table(String name) {
    TableEntry entry = tables.get(name);
    if (entry == null) {
      entry = load(name);
      tables.put(name, entry);
    }
    return entry;
  }

  Path fileOf(String tableName) {
    return directory.resolve(tableName + ".schema.json");
  }

  private TableEntry load(String name) {
    Path file = fileOf(name);
    if (!Files.isRegularFile(file)) {
      throw new MalformedRecordException("table " + name + " has no schema file " + file
          + " (write one per table; see the fetcher's README)");
    }
    try {
      return parse(name, JSON.readTree(file.toFile()));
    } catch (IOException e) {
      throw new MalformedRecordException("cannot read schema file " + file + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new MalformedRecordException("schema file " + file + ": " + e.getMessage(), e);
    }
  }

  private TableEntry parse(String name, JsonNode root) {
    int dot = name.lastIndexOf('.');
    if (dot <= 0 || dot == name.length() - 1) {
      throw new IllegalArgumentException("table name '" + name + "' is not OWNER.TABLE");
    }
    JsonNode title = root.path("title");
    if (!title.isMissingNode() && !title.asText().equals(name)) {
      throw new IllegalArgumentException("its title '" + title.asText() + "' is not the table " + name);
    }
    JsonNode properties = root.path("definitions").path("row").path("properties");
    if (!properties.isObject() || properties.isEmpty()) {
      throw new IllegalArgumentException("definitions.row.properties must list the table's columns");
    }
    List<Column> columns = new ArrayList<>();
    List<ValueDecoder> decoders = new ArrayList<>();
    for (Map.Entry<String, JsonNode> field : properties.properties()) {
      JsonNode oracleType = field.getValue().path("oracleType");
      if (!oracleType.isTextual()) {
        throw new IllegalArgumentException("column " + field.getKey() + " has no oracleType (for example \"NUMBER(10)\")");
      }
      OracleTypes.Mapped mapped = OracleTypes.map(field.getKey(), oracleType.asText());
      columns.add(mapped.column());
      decoders.add(mapped.decoder());
    }
    List<String> key = new ArrayList<>();
    for (JsonNode k : root.path("primary_keys")) {
      key.add(k.asText());
    }
    TableSchema schema = TableSchema.of(source, name.substring(0, dot), name.substring(dot + 1), columns, key);
    return new TableEntry(name, schema, decoders.toArray(new ValueDecoder[0]));
  }
}
