package io.gridway.fetcher.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.Utf8Text;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written reader of JSON operation records gives exactly what Jackson's gives: the same unit (values, their
 * Java types, CSN, XID, time, boundary) or the same error, on generated records of every value form and on 10,000
 * mutated ones; and it does read the records the formatter writes (else it would only be a detour).
 */
class JsonOpFastPathTest {
  private static final GoldenGateFiles.Table TABLE = new GoldenGateFiles.Table("S.T", List.of(
      new GoldenGateFiles.Col("ID", "NUMBER(18)", true),
      new GoldenGateFiles.Col("N2", "NUMBER(2)", false),
      new GoldenGateFiles.Col("AMOUNT", "NUMBER(12,2)", false),
      new GoldenGateFiles.Col("NUM", "NUMBER", false),
      new GoldenGateFiles.Col("BD", "BINARY_DOUBLE", false),
      new GoldenGateFiles.Col("BF", "BINARY_FLOAT", false),
      new GoldenGateFiles.Col("CREATED", "TIMESTAMP(6)", false),
      new GoldenGateFiles.Col("ZONED", "TIMESTAMP(6) WITH TIME ZONE", false),
      new GoldenGateFiles.Col("NAME", "VARCHAR2(64)", false),
      new GoldenGateFiles.Col("CL", "CLOB", false),
      new GoldenGateFiles.Col("RW", "RAW(16)", false)));

  @TempDir
  Path dir;
  private SchemaDirectory schemas;

  @BeforeEach
  void schema() {
    GoldenGateFiles.writeSchema(dir, TABLE);
    GoldenGateFiles.writeSchema(dir, new GoldenGateFiles.Table("S.U", List.of(new GoldenGateFiles.Col("K", "NUMBER(9)", true),
        new GoldenGateFiles.Col("V", "VARCHAR2(10)", false))));
    schemas = new SchemaDirectory(dir, "src");
  }

  @Test
  void readsTheRecordsTheFormatterWritesWithoutJackson() {
    JsonOpFastPath fast = new JsonOpFastPath(schemas, "TK-CSN", "TK-XID");
    for (boolean txind : new boolean[] {false, true}) {
      for (GoldenGateFiles.Op op : List.of(GoldenGateFiles.insert(TABLE, row(7, "x".repeat(1000))),
          GoldenGateFiles.update(TABLE, row(7, "a"), row(8, "b")), GoldenGateFiles.delete(TABLE, row(8, "b")),
          GoldenGateFiles.truncate(TABLE))) {
        byte[] record = bytes(GoldenGateFiles.json(new GoldenGateFiles.Txn(12, "3.4.5", "2024-03-01 10:00:00.000000", List.of(op)), txind));
        JsonOpFields fields = new JsonOpFields().reset();
        assertThat(fast.read(record, fields)).as(new String(record, StandardCharsets.UTF_8)).isTrue();
        assertThat(fields.csn).isEqualTo(12);
        assertThat(fields.xid).isEqualTo("3.4.5");
      }
    }
  }

  @Test
  void givesWhatJacksonGivesForEveryValueForm() {
    List<String> records = new ArrayList<>();
    for (String[] v : VALUE_FORMS) {
      records.add("{\"table\":\"S.T\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00.5\",\"tokens\":{\"TK-CSN\":\"9\"},"
          + "\"after\":{\"ID\":1,\"" + v[0] + "\":" + v[1] + "}}\n");
    }
    records.addAll(SHAPES);
    for (String record : records) {
      assertSame(bytes(record));
    }
  }

  @Test
  void givesWhatJacksonGivesForMutatedRecords() {
    Random random = new Random(2026);
    byte[] alphabet = bytes("{}[]\":,\\ \t\r\n0123456789.-+eEtrufalsnTXUDI_/u\u00e9");
    byte[] odd = {0x01, 0x1F, 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xE2, (byte) 0xED, (byte) 0xF0, (byte) 0xFF};
    List<byte[]> seeds = new ArrayList<>();
    for (String record : SHAPES) {
      seeds.add(bytes(record));
    }
    for (String[] v : VALUE_FORMS) {
      seeds.add(bytes("{\"table\":\"S.T\",\"op_type\":\"U\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-XID\":\"1.2\",\"TK-CSN\":77},"
          + "\"before\":{\"ID\":1,\"" + v[0] + "\":" + v[1] + "},\"after\":{\"ID\":2,\"" + v[0] + "\":" + v[1] + "}}\n"));
    }
    JsonOpFastPath fast = new JsonOpFastPath(schemas, "TK-CSN", "TK-XID");
    int accepted = 0;
    for (int round = 0; round < 10_000; round++) {
      byte[] record = seeds.get(random.nextInt(seeds.size())).clone();
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits && record.length > 0; e++) {
        int at = random.nextInt(record.length);
        byte b = random.nextInt(6) == 0 ? odd[random.nextInt(odd.length)] : alphabet[random.nextInt(alphabet.length)];
        switch (random.nextInt(4)) {
          case 0 -> record[at] = b;
          case 1 -> record = insert(record, at, b);
          case 2 -> record = Arrays.copyOf(record, at);
          default -> record = remove(record, at);
        }
      }
      assertSame(record);
      if (fast.read(record.clone(), new JsonOpFields().reset())) {
        accepted++;
      }
    }
    assertThat(accepted).as("mutated records the fast path read itself").isGreaterThan(200);
  }

  /** Column, JSON value text. */
  private static final String[][] VALUE_FORMS = {
      {"N2", "99"}, {"N2", "100"}, {"N2", "-99"}, {"N2", "-0"}, {"N2", "0"}, {"N2", "01"}, {"N2", "1.0"}, {"N2", "1e1"}, {"N2", "\"12\""},
      {"N2", "\" 12 \""}, {"N2", "\"x\""}, {"N2", "true"}, {"N2", "null"}, {"N2", "[1]"}, {"N2", "{}"},
      {"ID", "123456789012345678"}, {"ID", "1234567890123456789"}, {"ID", "-123456789012345678"}, {"ID", "99999999999999999999"},
      {"AMOUNT", "12.25"}, {"AMOUNT", "-12.5"}, {"AMOUNT", "12"}, {"AMOUNT", "12.255"}, {"AMOUNT", "1.2e1"}, {"AMOUNT", "1234567890123.5"},
      {"AMOUNT", "0.00"}, {"AMOUNT", "\"3.50\""}, {"AMOUNT", "1234567890123456789.5"},
      {"NUM", "3.14159"}, {"NUM", "-1E-5"}, {"NUM", "12345678901234567890123"},
      {"BD", "2.25E10"}, {"BD", "1.5"}, {"BD", "\"NaN\""}, {"BD", "\"-Inf\""}, {"BD", "7"},
      {"BF", "1.5"}, {"BF", "\"Inf\""},
      {"CREATED", "\"2024-03-01 10:00:00.123456\""}, {"CREATED", "\"2024-03-01T10:00:00\""}, {"CREATED", "\"2024-02-30 10:00:00\""},
      {"CREATED", "\"2024-03-01 10:00:00.123456789\""}, {"CREATED", "\"2024-03-01\""}, {"CREATED", "5"},
      {"ZONED", "\"2024-03-01 10:00:00 +02:00\""}, {"ZONED", "\"2024-03-01 10:00:00 Europe/Paris\""}, {"ZONED", "\"2024-03-01 10:00:00 Mars/Base\""},
      {"NAME", "\"plain\""}, {"NAME", "\"\""}, {"NAME", "\"h\u00e9llo \u65e5\u672c \ud83d\ude00\""}, {"NAME", "\"tab\\there\""},
      {"NAME", "\"quote \\\" and \\\\ and \\u00e9\""}, {"NAME", "\"bad \\x escape\""}, {"NAME", "12"}, {"NAME", "-1.5e3"}, {"NAME", "false"},
      {"NAME", "\"" + "y".repeat(300) + "\""}, {"NAME", "\"raw\u0001ctl\""},
      {"CL", "\"" + "z".repeat(1000) + "\""}, {"CL", "\"line\\nbreak\""},
      {"RW", "\"yv4=\""}, {"RW", "\"not base64!\""}, {"RW", "\"yv\\n4=\""},
      {"NOPE", "1"}, {"ID_isMissing", "true"}, {"N2_isMissing", "true"}, {"N2_isMissing", "false"},
  };

  /** Whole records: every field form of the metadata, and records that break the format's rules. */
  private static final List<String> SHAPES = List.of(
      "{\"table\":\"S.T\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"current_ts\":\"2026-01-01T00:00:00.000000\","
          + "\"pos\":\"00000000010000001000\",\"primary_keys\":[\"ID\"],\"tokens\":{\"TK-XID\":\"1.2.3\",\"TK-CSN\":\"5\"},"
          + "\"before\":null,\"after\":{\"ID\":1,\"NAME\":\"a\"}}\n",
      " { \"table\" : \"S.T\" ,\t\"op_type\" : \"D\" , \"op_ts\" : \"2024-03-01 10:00:00\" , \"tokens\" : { \"TK-CSN\" : 6 } ,"
          + " \"before\" : { \"ID\" : 1 } , \"after\" : null } \r\n",
      "{\"table\":\"S.U\",\"op_type\":\"U\",\"op_ts\":\"2024-03-01 10:00:00\",\"txind\":\"0\",\"tokens\":{\"TK-XID\":\"9\"},"
          + "\"before\":{\"K\":1,\"V\":\"a\"},\"after\":{\"K\":2}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"T\",\"op_ts\":\"2024-03-01 10:00:00\",\"txind\":3,\"tokens\":null}\n",
      "{\"table\":\"S.U\",\"op_type\":\"T\",\"op_ts\":\"2024-03-01 10:00:00\",\"txind\":\"E\",\"tokens\":{}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"txind\":4,\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"txind\":null,\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"txind\":12,\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":null,\"TK-XID\":null,\"x\":[1,{\"y\":[]}]},"
          + "\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"0\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"18446744073709551615\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\" 17 \"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":1.5},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-XID\":7},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":[],\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"X\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"II\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.NOPE\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":7,\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"table\":\"S.U\"}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-13-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":null}\n",
      "{\"table\":\"S.U\",\"op_type\":\"U\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1,\"V\":\"b\"}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"U\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"before\":{\"K\":1},\"after\":{\"V\":\"b\"}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"V\":\"b\",\"K\":1}}\n",
      "{\"table\":\"S.U\",\"table\":\"S.T\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"ID\":1}}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}} {}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}}x\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"x\":tru}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"x\":truex}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"\u00e9\":1}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"a\\\"b\":1}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":-01}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":1.}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":.5}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":+5}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":1e}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":[1,]}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"n\":" + "[".repeat(40)
          + "]".repeat(40) + "}\n",
      "{\"table\":\"S.U\",\"op_type\":\"I\",\"op_ts\":\"2024-03-01 10:00:00\",\"tokens\":{\"TK-CSN\":\"1\"},\"after\":{\"K\":1},\"" + "n".repeat(300)
          + "\":1}\n",
      "[1]\n", "\"x\"\n", "{}\n", "{\n", "", "\ufeff{\"table\":\"S.U\",\"op_type\":\"T\",\"op_ts\":\"2024-03-01 10:00:00\"}\n");

  /**
   * Runs the record through a parser with the fast path and through Jackson alone; both must agree. The two parsers
   * live for the whole test, so their caches of the last table and op_ts are exercised too.
   */
  private void assertSame(byte[] record) {
    if (withFastPath == null) {
      withFastPath = new JsonOpParser(schemas, "TK-CSN", "TK-XID");
      jacksonOnly = new JsonOpParser(schemas, "TK-CSN", "TK-XID");
    }
    String shown = new String(record, StandardCharsets.UTF_8);
    Object fast = outcome(() -> withFastPath.parse(record.clone(), 0, record.length));
    Object jackson = outcome(() -> jacksonOnly.parseWithJackson(record.clone()));
    assertThat(fast).as(shown).isEqualTo(jackson);
  }

  private JsonOpParser withFastPath;
  private JsonOpParser jacksonOnly;

  private static Object outcome(java.util.function.Supplier<ChangeUnit> parse) {
    try {
      return describe(parse.get());
    } catch (MalformedRecordException e) {
      return "error: " + e.getMessage();
    } catch (RuntimeException e) { // e.g. Jackson's NumberFormatException for an exponent of 20 digits: the same on both
      return "unexpected: " + e;
    }
  }

  /** A unit as comparable text: each value with its Java class (Utf8Text compares by identity). */
  private static String describe(ChangeUnit unit) {
    StringBuilder s = new StringBuilder();
    s.append(unit.csn()).append('|').append(unit.xid()).append('|').append(unit.commitMicros()).append('|').append(unit.boundary())
        .append('|').append(unit.bytes());
    for (ParsedOp op : unit.ops()) {
      s.append('|').append(op.table().name()).append(' ').append(op.op()).append(' ').append(image(op.before())).append(' ')
          .append(image(op.after()));
    }
    return s.toString();
  }

  private static String image(Object[] values) {
    if (values == null) {
      return "null";
    }
    List<String> parts = new ArrayList<>();
    for (Object v : values) {
      parts.add(v == null ? "NULL" : v.getClass().getSimpleName() + ":" + (v instanceof Utf8Text t ? t.toString() : String.valueOf(v)));
    }
    return parts.toString();
  }

  private static Map<String, String> row(int id, String name) {
    Map<String, String> row = new LinkedHashMap<>();
    row.put("ID", Integer.toString(id));
    row.put("N2", "12");
    row.put("AMOUNT", "1234.25");
    row.put("NUM", "3.5");
    row.put("BD", "2.5");
    row.put("BF", "1.5");
    row.put("CREATED", "2024-03-01 10:00:00.123456");
    row.put("ZONED", "2024-03-01 10:00:00.123456 +02:00");
    row.put("NAME", name);
    row.put("CL", "clob text");
    row.put("RW", "yv4=");
    return row;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] insert(byte[] a, int at, byte b) {
    byte[] r = new byte[a.length + 1];
    System.arraycopy(a, 0, r, 0, at);
    r[at] = b;
    System.arraycopy(a, at, r, at + 1, a.length - at);
    return r;
  }

  private static byte[] remove(byte[] a, int at) {
    byte[] r = new byte[a.length - 1];
    System.arraycopy(a, 0, r, 0, at);
    System.arraycopy(a, at + 1, r, at, a.length - at - 1);
    return r;
  }
}
