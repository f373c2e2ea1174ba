package io.gridway.fetcher.goldengate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's generator of GoldenGate files, for tests and benchmarks only (the fetcher never calls it): writes
 * GoldenGate's two documented file formats, and the per-table schema files, from the shapes the documentation gives.
 * In main code (not test sources) so that the fetcher's golden-file tests, the grid ITs and {@code gridway perf stage1
 * --source goldengate} all write the same files. Our own code, no third-party sample copied. Each field names the document
 * (and section) that defines it:
 *
 * <ul>
 *   <li>[FORMATXML] Oracle GoldenGate Reference for Windows and UNIX 12c (12.1.2), "FORMATXML": options TRANS
 *       (transaction boundaries and commit timestamps in the output, the default) and NOTRANS; ENCODING UTF-8
 *       (adds the XML header and the root node OracleGoldenGateFormatXML); XML stored in CLOBs is written in CDATA
 *       sections; binary data, BLOBs included, is Base64.
 *   <li>[XML-SHAPE] The element grammar (transaction / dbupdate table, type, image="before" / columns / column
 *       name, key / tokens / token name) is not spelt out on the FORMATXML reference page; it is the shape recorded
 *       in ../shared/DEPENDENCIES.md ("GoldenGate"), which LinkedIn Databus's GoldenGate relay parses. The NULL
 *       marker isNull="true" is part of that same record.
 *   <li>[TOKENS] Administering Oracle GoldenGate 21.3, "Defining Tokens": TABLE table_spec, TOKENS (name =
 *       data); with Reference for Oracle GoldenGate, "@GETENV" ('TRANSACTION', 'CSN') and ('TRANSACTION', 'XID').
 *   <li>[JSON-META] Oracle GoldenGate for Big Data 12.3.2.1, chapter 17 "Using the Pluggable Formatters",
 *       "Using the JSON Formatter", "Operation Metadata Formatting Details": table, op_type (I, U, D, T), op_ts,
 *       current_ts, pos, primary_keys, tokens.
 *   <li>[JSON-OPS] Oracle GoldenGate for Big Data 12.2.0.1, 6.1.1 "Operation Formatters": insert has a null
 *       before image, update both, delete a null after image, truncate both null.
 *   <li>[TXIND] Administering Oracle GoldenGate 21.3, Table 13-2 "Oracle GoldenGate record header fields",
 *       TransInd: 0 first, 1 middle, 2 last, 3 only record of the transaction; GG for Big Data 21.1, 9.2.3.1
 *       "Metadata Columns", txind (a metacolumn the JSON formatter can add through its metacolumns template).
 *   <li>[JSON-SCHEMA] the same chapter, "Using the JSON Formatter", "JSON Schemas": one draft-04 JSON schema per
 *       table (title = the table, definitions.row.properties = its columns). The per-column oracleType and the
 *       top-level primary_keys are Gridway's additions (README.md), because JSON types cannot tell NUMBER(10)
 *       from NUMBER(12,2) or DATE from VARCHAR2.
 *   <li>[FILES] Administering Oracle GoldenGate, trail files: a prefix and a sequence number that grows by one at
 *       each roll-over.
 * </ul>
 */
public final class GoldenGateFiles {
  /** A column value that is SQL NULL. */
  public static final String NULL = new String("<null>");

  public record Col(String name, String oracleType, boolean key) {}

  public record Table(String name, List<Col> columns) {
    public Col column(String name) {
      return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
  }

  /** One operation; images map column name to GoldenGate's text for the value (or NULL), in column order. */
  public record Op(Table table, char type, Map<String, String> before, Map<String, String> after) {}

  /** One source transaction: csn < 0 writes no CSN token, xid null no XID token. */
  public record Txn(long csn, String xid, String commitTs, List<Op> ops) {}

  public static Map<String, String> row(String... namesAndValues) {
    Map<String, String> row = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      row.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return row;
  }

  public static Op insert(Table t, Map<String, String> after) {
    return new Op(t, 'I', null, after);
  }

  public static Op update(Table t, Map<String, String> before, Map<String, String> after) {
    return new Op(t, 'U', before, after);
  }

  public static Op delete(Table t, Map<String, String> before) {
    return new Op(t, 'D', before, null);
  }

  public static Op truncate(Table t) {
    return new Op(t, 'T', null, null);
  }

  // ---------------------------------------------------------------- schema files [JSON-SCHEMA]

  public static void writeSchema(Path directory, Table table) {
    StringBuilder s = new StringBuilder();
    s.append("{\n  \"$schema\": \"http://json-schema.org/draft-04/schema#\",\n"); // [JSON-SCHEMA] draft-04
    s.append("  \"title\": \"").append(table.name()).append("\",\n"); // [JSON-SCHEMA] title: the table
    s.append("  \"description\": \"JSON schema for table ").append(table.name()).append("\",\n");
    s.append("  \"definitions\": {\n    \"row\": {\n      \"type\": \"object\",\n      \"properties\": {\n"); // [JSON-SCHEMA]
    for (int i = 0; i < table.columns().size(); i++) {
      Col c = table.columns().get(i);
      s.append("        \"").append(c.name()).append("\": {\"type\": [\"").append(isNumeric(c) ? "number" : "string")
          .append("\", \"null\"], \"oracleType\": \"").append(c.oracleType()).append("\"}") // oracleType: Gridway's addition
          .append(i + 1 < table.columns().size() ? ",\n" : "\n");
    }
    s.append("      }\n    }\n  },\n  \"primary_keys\": ["); // Gridway's addition
    List<String> keys = new ArrayList<>();
    for (Col c : table.columns()) {
      if (c.key()) {
        keys.add("\"" + c.name() + "\"");
      }
    }
    s.append(String.join(", ", keys)).append("]\n}\n");
    write(directory.resolve(table.name() + ".schema.json"), s.toString(), false);
  }

  private static boolean isNumeric(Col c) {
    String t = c.oracleType().toUpperCase();
    return t.startsWith("NUMBER") || t.startsWith("BINARY_") || t.startsWith("FLOAT") || t.startsWith("INTEGER");
  }

  // ---------------------------------------------------------------- FORMATXML

  /** One transaction as FORMATXML with TRANS writes it. */
  public static String xml(Txn txn) {
    StringBuilder s = new StringBuilder();
    s.append("<transaction timestamp=\"").append(txn.commitTs()).append("\">\n"); // [FORMATXML] TRANS: boundary + commit timestamp
    for (Op op : txn.ops()) {
      s.append(xmlOp(txn, op));
    }
    s.append("</transaction>\n");
    return s.toString();
  }

  /** The dbupdate element(s) of one operation: an update writes its before image first (GETUPDATEBEFORES). */
  public static String xmlOp(Txn txn, Op op) {
    StringBuilder s = new StringBuilder();
    String type = switch (op.type()) {
      case 'I' -> "insert";
      case 'U' -> "update";
      case 'D' -> "delete";
      default -> "truncate";
    };
    if (op.type() == 'U') {
      dbupdate(s, txn, op.table(), type, true, op.before()); // [XML-SHAPE] image="before"
      dbupdate(s, txn, op.table(), type, false, op.after());
    } else {
      dbupdate(s, txn, op.table(), type, false, op.type() == 'D' ? op.before() : op.after());
    }
    return s.toString();
  }

  private static void dbupdate(StringBuilder s, Txn txn, Table table, String type, boolean before, Map<String, String> image) {
    s.append("  <dbupdate table=\"").append(table.name()).append("\" type=\"").append(type).append('"'); // [XML-SHAPE]
    if (before) {
      s.append(" image=\"before\""); // [XML-SHAPE]
    }
    s.append(">\n");
    if (image != null) {
      s.append("    <columns>\n"); // [XML-SHAPE]
      for (Map.Entry<String, String> e : image.entrySet()) {
        Col c = table.column(e.getKey());
        s.append("      <column name=\"").append(c.name()).append('"'); // [XML-SHAPE] name
        if (c.key()) {
          s.append(" key=\"true\""); // [XML-SHAPE] key
        }
        if (e.getValue() == NULL) {
          s.append(" isNull=\"true\"/>\n"); // [XML-SHAPE] NULL marker
        } else {
          s.append('>').append(xmlValue(c, e.getValue())).append("</column>\n");
        }
      }
      s.append("    </columns>\n");
    }
    tokens(s, txn);
    s.append("  </dbupdate>\n");
  }

  private static void tokens(StringBuilder s, Txn txn) {
    if (txn.csn() < 0 && txn.xid() == null) {
      return;
    }
    s.append("    <tokens>\n"); // [XML-SHAPE] tokens; [TOKENS] user tokens set by TABLE ... TOKENS
    if (txn.xid() != null) {
      s.append("      <token name=\"TK-XID\">").append(txn.xid()).append("</token>\n"); // [TOKENS] @GETENV('TRANSACTION','XID')
    }
    if (txn.csn() >= 0) {
      s.append("      <token name=\"TK-CSN\">").append(txn.csn()).append("</token>\n"); // [TOKENS] @GETENV('TRANSACTION','CSN')
    }
    s.append("    </tokens>\n");
  }

  private static String xmlValue(Col c, String value) {
    String t = c.oracleType().toUpperCase();
    if (t.equals("XMLTYPE") || t.equals("CLOB") && value.startsWith("<")) {
      return "<![CDATA[" + value + "]]>"; // [FORMATXML] XML stored in CLOBs is written in CDATA
    }
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Binary values: [FORMATXML] "binary data including BLOB is Base64-encoded" (and the JSON formatter alike). */
  public static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  // ---------------------------------------------------------------- JSON operation format

  /** The transaction's operations, one JSON line each; txind adds the [TXIND] metacolumn. */
  public static String json(Txn txn, boolean txind) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < txn.ops().size(); i++) {
      Op op = txn.ops().get(i);
      s.append('{');
      field(s, "table", op.table().name()).append(','); // [JSON-META] table: OWNER.TABLE
      field(s, "op_type", String.valueOf(op.type())).append(','); // [JSON-META] op_type I/U/D/T
      field(s, "op_ts", txn.commitTs()).append(','); // [JSON-META] op_ts: the operation's timestamp from the trail
      field(s, "current_ts", "2026-01-01T00:00:00.000000").append(','); // [JSON-META] current_ts: when formatted
      field(s, "pos", String.format("%010d%010d", 1, 1000 + i)).append(','); // [JSON-META] pos: trail seqno + RBA
      s.append("\"primary_keys\":["); // [JSON-META] primary_keys
      boolean first = true;
      for (Col c : op.table().columns()) {
        if (c.key()) {
          s.append(first ? "" : ",").append('"').append(c.name()).append('"');
          first = false;
        }
      }
      s.append("],");
      if (txind) {
        int n = txn.ops().size();
        String ind = n == 1 ? "3" : i == 0 ? "0" : i == n - 1 ? "2" : "1"; // [TXIND] 0 first, 1 middle, 2 last, 3 only
        field(s, "txind", ind).append(',');
      }
      s.append("\"tokens\":{"); // [JSON-META] tokens (user tokens, [TOKENS])
      boolean firstToken = true;
      if (txn.xid() != null) {
        field(s, "TK-XID", txn.xid());
        firstToken = false;
      }
      if (txn.csn() >= 0) {
        s.append(firstToken ? "" : ",");
        field(s, "TK-CSN", Long.toString(txn.csn()));
      }
      s.append("},");
      s.append("\"before\":").append(jsonImage(op.table(), op.before())).append(','); // [JSON-OPS] before (null for insert/truncate)
      s.append("\"after\":").append(jsonImage(op.table(), op.after())); // [JSON-OPS] after (null for delete/truncate)
      s.append("}\n");
    }
    return s.toString();
  }

  private static String jsonImage(Table table, Map<String, String> image) {
    if (image == null) {
      return "null";
    }
    StringBuilder s = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, String> e : image.entrySet()) {
      s.append(first ? "" : ",").append('"').append(e.getKey()).append("\":");
      first = false;
      String v = e.getValue();
      if (v == NULL) {
        s.append("null");
      } else if (isNumeric(table.column(e.getKey())) && !v.equals("NaN") && !v.contains("Inf")) {
        s.append(v); // numbers as JSON numbers (the formatter's default, not treatAllColumnsAsStrings)
      } else {
        s.append(quoted(v));
      }
    }
    return s.append('}').toString();
  }

  private static StringBuilder field(StringBuilder s, String name, String value) {
    return s.append('"').append(name).append("\":").append(quoted(value));
  }

  private static String quoted(String v) {
    StringBuilder q = new StringBuilder("\"");
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> q.append("\\\"");
        case '\\' -> q.append("\\\\");
        case '\n' -> q.append("\\n");
        case '\r' -> q.append("\\r");
        case '\t' -> q.append("\\t");
        default -> {
          if (c < 0x20) {
            q.append(String.format("\\u%04x", (int) c));
          } else {
            q.append(c);
          }
        }
      }
    }
    return q.append('"').toString();
  }

  // ---------------------------------------------------------------- files [FILES]

  public static Path file(Path directory, String prefix, long sequence) {
    return directory.resolve(prefix + String.format("%09d", sequence));
  }

  /** Appends text to a file (creating it): what a writer does while the fetcher tails it. */
  public static void append(Path file, String text) {
    write(file, text, true);
  }

  public static void write(Path file, String text, boolean append) {
    try {
      Files.write(file, text.getBytes(StandardCharsets.UTF_8), append
          ? new StandardOpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE}
          : new StandardOpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
