package io.gridway.fetcher.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The hand-written reader of FORMATXML records gives exactly what StAX's gives: the same units (values, their Java
 * types, CSN, XID, time, boundary) or the same error, on generated records of every value form, on random generated
 * transactions (every type, NULLs, before and after images, unicode, references) and on 10,000 mutated ones; and it
 * does read the records Classic Extract writes (else it would only be a detour).
 */
class XmlFastPathTest {
  private static final GoldenGateFiles.Table TABLE = new GoldenGateFiles.Table("S.T", List.of(
      new GoldenGateFiles.Col("ID", "NUMBER(18)", true),
      new GoldenGateFiles.Col("N2", "NUMBER(2)", false),
      new GoldenGateFiles.Col("AMOUNT", "NUMBER(12,2)", false),
      new GoldenGateFiles.Col("NUM", "NUMBER", false),
      new GoldenGateFiles.Col("BD", "BINARY_DOUBLE", false),
      new GoldenGateFiles.Col("BF", "BINARY_FLOAT", false),
      new GoldenGateFiles.Col("CREATED", "TIMESTAMP(6)", false),
      new GoldenGateFiles.Col("ZONED", "TIMESTAMP(6) WITH TIME ZONE", false),
      new GoldenGateFiles.Col("DT", "DATE", false),
      new GoldenGateFiles.Col("NAME", "VARCHAR2(64)", false),
      new GoldenGateFiles.Col("CH", "CHAR(5)", false),
      new GoldenGateFiles.Col("CL", "CLOB", false),
      new GoldenGateFiles.Col("XM", "XMLTYPE", false),
      new GoldenGateFiles.Col("RW", "RAW(16)", false),
      new GoldenGateFiles.Col("BL", "BLOB", false),
      new GoldenGateFiles.Col("IV", "INTERVAL DAY TO SECOND", false)));
  private static final GoldenGateFiles.Table SMALL = new GoldenGateFiles.Table("S.U", List.of(
      new GoldenGateFiles.Col("K", "NUMBER(9)", true), new GoldenGateFiles.Col("V", "VARCHAR2(10)", false)));

  @TempDir
  Path dir;
  private SchemaDirectory schemas;
  private XmlTransactionParser withFastPath;
  private XmlTransactionParser staxOnly;

  @BeforeEach
  void schema() {
    GoldenGateFiles.writeSchema(dir, TABLE);
    GoldenGateFiles.writeSchema(dir, SMALL);
    schemas = new SchemaDirectory(dir, "src");
    withFastPath = new XmlTransactionParser(schemas, "TK-CSN", "TK-XID");
    staxOnly = new XmlTransactionParser(schemas, "TK-CSN", "TK-XID");
  }

  @Test
  void readsTheRecordsClassicExtractWritesWithoutStax() {
    XmlFastPath fast = new XmlFastPath(schemas, "TK-CSN", "TK-XID");
    for (GoldenGateFiles.Op op : List.of(GoldenGateFiles.insert(TABLE, row(7, "x".repeat(1000))),
        GoldenGateFiles.update(TABLE, row(7, "a"), row(8, "b")), GoldenGateFiles.delete(TABLE, row(8, "b")),
        GoldenGateFiles.truncate(TABLE), GoldenGateFiles.insert(TABLE, withNulls(row(9, "c"))))) {
      GoldenGateFiles.Txn txn = new GoldenGateFiles.Txn(12, "3.4.5", "2024-03-01 10:00:00.000000", List.of(op));
      byte[] transaction = bytes(GoldenGateFiles.xml(txn).trim());
      assertThat(fast.read(transaction, 0, transaction.length)).as(new String(transaction, StandardCharsets.UTF_8)).isTrue();
      assertThat(fast.transaction).isTrue();
      assertThat(fast.updates).hasSize(op.type() == 'U' ? 2 : 1);
      assertThat(fast.updates.get(0).csn).isEqualTo(12);
      assertThat(fast.updates.get(0).xid).isEqualTo("3.4.5");
      if (op.type() != 'U') {
        byte[] lone = bytes(GoldenGateFiles.xmlOp(txn, op).trim()); // NOTRANS: a lone dbupdate
        assertThat(fast.read(lone, 0, lone.length)).as(new String(lone, StandardCharsets.UTF_8)).isTrue();
        assertThat(fast.transaction).isFalse();
      }
      assertSame(transaction);
    }
  }

  @Test
  void givesWhatStaxGivesForEveryValueForm() {
    for (String[] v : VALUE_FORMS) {
      assertSame(bytes("<transaction timestamp=\"2024-03-01 10:00:00.5\"><dbupdate table=\"S.T\" type=\"insert\"><columns>"
          + "<column name=\"ID\" key=\"true\">1</column><column name=\"" + v[0] + "\"" + v[1] + "</columns><tokens>"
          + "<token name=\"TK-CSN\">9</token></tokens></dbupdate></transaction>"));
    }
    for (String record : SHAPES) {
      assertSame(bytes(record));
    }
  }

  @Test
  void givesWhatStaxGivesForRandomTransactions() {
    Random random = new Random(2027);
    int fastReads = 0;
    XmlFastPath fast = new XmlFastPath(schemas, "TK-CSN", "TK-XID");
    for (int n = 0; n < 1_000; n++) {
      List<GoldenGateFiles.Op> ops = new ArrayList<>();
      for (int k = 1 + random.nextInt(4); k > 0; k--) {
        Map<String, String> before = randomRow(random);
        Map<String, String> after = randomRow(random);
        ops.add(switch (random.nextInt(5)) {
          case 0, 1 -> GoldenGateFiles.insert(TABLE, after);
          case 2 -> GoldenGateFiles.update(TABLE, before, after);
          case 3 -> GoldenGateFiles.delete(TABLE, before);
          default -> random.nextBoolean() ? GoldenGateFiles.truncate(TABLE) : GoldenGateFiles.insert(SMALL,
              GoldenGateFiles.row("K", Integer.toString(random.nextInt(1000)), "V", randomText(random, 10)));
        });
      }
      GoldenGateFiles.Txn txn = new GoldenGateFiles.Txn(1 + random.nextInt(1_000_000), random.nextInt(4) == 0 ? null : "1." + n,
          "2024-03-0" + (1 + random.nextInt(9)) + " 10:00:0" + random.nextInt(10) + "." + random.nextInt(1_000_000), ops);
      byte[] record = bytes(GoldenGateFiles.xml(txn).trim());
      assertSame(record);
      if (fast.read(record, 0, record.length)) {
        fastReads++;
      }
    }
    assertThat(fastReads).as("random transactions the fast path read itself").isGreaterThan(100);
  }

  @Test
  void givesWhatStaxGivesForMutatedRecords() {
    Random random = new Random(2026);
    byte[] alphabet = bytes("<>/=\"' \t\r\n&;#x0123456789.-:abcdeinrstuxyCDATA[]!?_\u00e9");
    byte[] odd = {0x01, 0x1F, 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xE2, (byte) 0xED, (byte) 0xEF, (byte) 0xBF, (byte) 0xFF};
    List<byte[]> seeds = new ArrayList<>();
    for (String record : SHAPES) {
      seeds.add(bytes(record));
    }
    GoldenGateFiles.Txn txn = new GoldenGateFiles.Txn(77, "1.2", "2024-03-01 10:00:00", List.of(
        GoldenGateFiles.update(TABLE, row(1, "a\u00e9"), row(2, "b")), GoldenGateFiles.insert(SMALL, GoldenGateFiles.row("K", "1", "V", "v"))));
    seeds.add(bytes(GoldenGateFiles.xml(txn).trim()));
    XmlFastPath fast = new XmlFastPath(schemas, "TK-CSN", "TK-XID");
    int accepted = 0;
    for (int round = 0; round < 5_000; round++) {
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
      if (fast.read(record, 0, record.length)) {
        accepted++;
      }
    }
    assertThat(accepted).as("mutated records the fast path read itself").isGreaterThan(30);
  }

  /** Column, the rest of its element after the name attribute's closing quote. */
  private static final String[][] VALUE_FORMS = {
      {"N2", ">99</column>"}, {"N2", ">100</column>"}, {"N2", ">-99</column>"}, {"N2", ">-0</column>"}, {"N2", ">01</column>"},
      {"N2", ">1.0</column>"}, {"N2", ">1e1</column>"}, {"N2", "> 12 </column>"}, {"N2", ">+5</column>"}, {"N2", ">-</column>"},
      {"N2", "></column>"}, {"N2", "/>"}, {"N2", " isNull=\"true\"/>"}, {"N2", " isNull=\"true\">5</column>"},
      {"N2", " isNull=\"false\">5</column>"}, {"N2", ">x</column>"},
      {"ID", ">123456789012345678</column>"}, {"ID", ">1234567890123456789</column>"}, {"ID", ">-123456789012345678</column>"},
      {"ID", ">99999999999999999999</column>"},
      {"AMOUNT", ">12.25</column>"}, {"AMOUNT", ">-12.5</column>"}, {"AMOUNT", ">12</column>"}, {"AMOUNT", ">12.255</column>"},
      {"AMOUNT", ">1.2e1</column>"}, {"AMOUNT", ">.5</column>"}, {"AMOUNT", ">-.5</column>"}, {"AMOUNT", ">5.</column>"},
      {"AMOUNT", ">1234567890123.5</column>"}, {"AMOUNT", ">-0.00</column>"}, {"AMOUNT", ">1234567890123456789.5</column>"},
      {"NUM", ">3.14159</column>"}, {"NUM", ">-1E-5</column>"}, {"NUM", ">12345678901234567890123</column>"},
      {"BD", ">2.25E10</column>"}, {"BD", ">NaN</column>"}, {"BD", ">-Inf</column>"}, {"BF", ">1.5</column>"}, {"BF", ">Inf</column>"},
      {"CREATED", ">2024-03-01 10:00:00.123456</column>"}, {"CREATED", ">2024-03-01T10:00:00</column>"},
      {"CREATED", ">2024-03-01:10:00:00</column>"}, {"CREATED", ">2024-02-30 10:00:00</column>"},
      {"CREATED", ">2024-03-01 10:00:00.123456789</column>"}, {"DT", ">2024-03-01</column>"},
      {"ZONED", ">2024-03-01 10:00:00 +02:00</column>"}, {"ZONED", ">2024-03-01 10:00:00 Europe/Paris</column>"},
      {"ZONED", ">2024-03-01 10:00:00 Mars/Base</column>"},
      {"NAME", ">plain</column>"}, {"NAME", "></column>"}, {"NAME", ">h\u00e9llo \u65e5\u672c \ud83d\ude00</column>"},
      {"NAME", ">a &amp; b &lt;c&gt; &#233; &#x41;</column>"}, {"NAME", ">a &bogus; b</column>"}, {"NAME", ">a & b</column>"},
      {"NAME", ">a > b</column>"}, {"NAME", ">a ]]> b</column>"}, {"NAME", ">tab\there</column>"}, {"NAME", ">cr\r\nlf</column>"},
      {"NAME", ">lf\nonly</column>"}, {"NAME", ">raw\u0001ctl</column>"}, {"NAME", ">bad \ufffe char</column>"},
      {"NAME", "><![CDATA[x<y]]></column>"}, {"NAME", ">a<!-- c -->b</column>"}, {"NAME", ">a<b>c</b></column>"},
      {"NAME", ">" + "y".repeat(300) + "</column>"}, {"NAME", ">x</columnx>"}, {"NAME", ">x</column >"}, {"NAME", ">x</ column>"},
      {"NAME", " >x</column>"}, {"NAME", "\t key='true'>x</column>"}, {"NAME", " key=\"true\"key=\"x\">x</column>"},
      {"NAME", " name=\"NAME\">dup</column>"}, {"NAME", " a:b=\"c\">x</column>"}, {"NAME", " xmlns=\"urn:x\">x</column>"},
      {"NAME", " key=\"a<b\">x</column>"}, {"NAME", " key=\"a&amp;b\">x</column>"}, {"NAME", " key=\"a\tb\">x</column>"},
      {"NAME", " key=\"\u00e9\">x</column>"}, {"NAME", " key=\"x>x</column>"}, {"NAME", " key=x>x</column>"},
      {"CH", ">ab   </column>"}, {"CL", ">" + "z".repeat(1000) + "</column>"}, {"CL", ">" + "z".repeat(100) + "\u00e9" + "z".repeat(100) + "</column>"},
      {"XM", "><![CDATA[<a><b>1</b></a>]]></column>"},
      {"RW", ">yv4=</column>"}, {"RW", ">not base64!</column>"}, {"RW", ">yv\n4=</column>"}, {"BL", ">AAEC/38=</column>"},
      {"IV", ">+01 02:03:04.000000</column>"},
      {"NOPE", ">1</column>"}, {"ID", ">2</column>"},
  };

  /** Whole records: every shape of the grammar, and records that break the format's rules. */
  private static final List<String> SHAPES = List.of(
      "<transaction timestamp=\"2024-03-01 10:00:00\">\n  <dbupdate table=\"S.U\" type=\"insert\">\n    <columns>\n"
          + "      <column name=\"K\" key=\"true\">1</column>\n      <column name=\"V\">a</column>\n    </columns>\n"
          + "    <tokens>\n      <token name=\"TK-XID\">1.2.3</token>\n      <token name=\"TK-CSN\">5</token>\n    </tokens>\n"
          + "  </dbupdate>\n</transaction>",
      "<transaction timestamp='2024-03-01 10:00:00' ><dbupdate type = \"delete\" table = 'S.U' ><tokens><token name=\"TK-CSN\">6</token>"
          + "<token name=\"other\">x</token><other name=\"TK-XID\">7.8</other></tokens><columns><column name=\"K\">1</column></columns>"
          + "</dbupdate ></transaction >",
      "<dbupdate table=\"S.U\" type=\"update\" image=\"before\"><columns><column name=\"K\">1</column><column name=\"V\">a</column>"
          + "</columns><tokens><token name=\"TK-XID\">9</token></tokens></dbupdate>",
      "<dbupdate table=\"S.U\" type=\"update\"><columns><column name=\"K\">2</column></columns><tokens><token name=\"TK-XID\">9</token>"
          + "</tokens></dbupdate>",
      "<dbupdate table=\"S.U\" type=\"update\"><columns><column name=\"K\">2</column></columns></dbupdate>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"><dbupdate table=\"S.U\" type=\"update\" image=\"before\"><columns>"
          + "<column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"><dbupdate table=\"S.U\" type=\"update\" image=\"before\"><columns>"
          + "<column name=\"K\">1</column></columns></dbupdate><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column>"
          + "</columns></dbupdate></transaction>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"><dbupdate table=\"S.U\" type=\"delete\" image=\"before\"><columns>"
          + "<column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"><dbupdate table=\"S.U\" type=\"truncate\"/></transaction>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"><dbupdate table=\"S.U\" type=\"truncate\"><columns><column name=\"K\">1</column>"
          + "</columns></dbupdate></transaction>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"><dbupdate table=\"S.U\" type=\"truncate\"><columns/><tokens/></dbupdate></transaction>",
      "<transaction timestamp=\"2024-03-01 10:00:00\"/>", "<transaction/>", "<transaction></transaction>",
      "<transaction timestamp=\"2024-13-01 10:00:00\"><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column>"
          + "</columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns><tokens>"
          + "<token name=\"TK-CSN\">1</token></tokens></dbupdate><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">2</column>"
          + "</columns><tokens><token name=\"TK-CSN\">2</token></tokens></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns><tokens>"
          + "<token name=\"TK-CSN\">0</token></tokens></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns><tokens>"
          + "<token name=\"TK-CSN\"> 17 </token></tokens></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns><tokens>"
          + "<token name=\"TK-CSN\">18446744073709551615</token></tokens></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns><tokens>"
          + "<token name=\"TK-CSN\">1.5</token><token name=\"TK-XID\"> x </token></tokens></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns><tokens>"
          + "<token name=\"TK-CSN\"><x/></token></tokens></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"upsert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.NOPE\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction><dbupdate type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column>1</column></columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><col name=\"K\">1</col></columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><cols/></dbupdate></transaction>",
      "<transaction><update/></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"V\">v</column></columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"V\">v</column><column name=\"K\">3</column>"
          + "</columns></dbupdate></transaction>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>x",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction><x/>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate>",
      "<transaction><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transactionx>",
      "<transaction>text<dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction><!-- c --><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction><?pi x?><dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      "<transaction>\r\n<dbupdate table=\"S.U\" type=\"insert\"><columns><column name=\"K\">1</column></columns></dbupdate></transaction>",
      " <transaction/>", "<x/>", "", "<", "<transaction", "<transaction timestamp=\"2024-03-01 10:00:00\" timestamp=\"x\"/>");

  /**
   * Runs the record through a parser with the fast path and through StAX alone; both must agree. The two parsers live
   * for the whole test, so their held before images and caches of the last table and timestamp are exercised too.
   */
  private void assertSame(byte[] record) {
    String shown = new String(record, StandardCharsets.UTF_8);
    byte[] padded = new byte[record.length + 6]; // the record inside a larger buffer, as the reader hands it over
    System.arraycopy(record, 0, padded, 3, record.length);
    Object fast = outcome(() -> withFastPath.parse(padded, 3, 3 + record.length));
    Object stax = outcome(() -> staxOnly.parseWithStax(record.clone(), 0, record.length));
    assertThat(fast).as(shown).isEqualTo(stax);
  }

  private static Object outcome(java.util.function.Supplier<ChangeUnit> parse) {
    try {
      return describe(parse.get());
    } catch (MalformedRecordException e) {
      return "error: " + e.getMessage();
    } catch (RuntimeException e) {
      return "unexpected: " + e;
    }
  }

  /** A unit as comparable text: each value with its Java class. */
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
      parts.add(v == null ? "NULL" : v.getClass().getSimpleName() + ":" + v);
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
    row.put("DT", "2024-03-01 10:00:00");
    row.put("NAME", name);
    row.put("CH", "ab   ");
    row.put("CL", "clob text");
    row.put("XM", GoldenGateFiles.NULL); // an XMLTYPE value is written as CDATA, which StAX reads (random rows have some)
    row.put("RW", "yv4=");
    row.put("BL", GoldenGateFiles.base64(new byte[] {0, 1, (byte) 0xFF}));
    row.put("IV", "+01 02:03:04.000000");
    return row;
  }

  private static Map<String, String> withNulls(Map<String, String> row) {
    row.replaceAll((k, v) -> k.equals("ID") ? v : GoldenGateFiles.NULL);
    return row;
  }

  /** A row of random values in every column's usual forms, some NULL, some left out (missing). */
  private static Map<String, String> randomRow(Random random) {
    Map<String, String> row = new LinkedHashMap<>();
    row.put("ID", Long.toString(random.nextLong() % 1_000_000_000_000L));
    Map<String, String> values = new LinkedHashMap<>();
    values.put("N2", Integer.toString(random.nextInt(199) - 99));
    values.put("AMOUNT", (random.nextInt(2_000_000) - 1_000_000) + "." + String.format("%02d", random.nextInt(100)));
    values.put("NUM", random.nextInt(1000) + "." + random.nextInt(100_000));
    values.put("BD", Double.toString(random.nextGaussian() * 1e6));
    values.put("BF", Float.toString(random.nextFloat()));
    values.put("CREATED", "2024-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10) + " 1" + random.nextInt(10) + ":00:00."
        + random.nextInt(1_000_000));
    values.put("ZONED", "2024-03-01 10:00:00 " + (random.nextBoolean() ? "+0" + random.nextInt(10) + ":00" : "Europe/Paris"));
    values.put("DT", "2024-03-01 10:00:00");
    values.put("NAME", randomText(random, 40));
    values.put("CH", randomText(random, 5));
    values.put("CL", randomText(random, random.nextInt(4) == 0 ? 2_000 : 60));
    if (random.nextInt(8) == 0) {
      values.put("XM", "<a>" + random.nextInt() + "</a>"); // CDATA: the record is StAX's
    }
    byte[] raw = new byte[random.nextInt(16)];
    random.nextBytes(raw);
    values.put("RW", GoldenGateFiles.base64(raw));
    values.put("BL", GoldenGateFiles.base64(raw));
    values.put("IV", "+0" + random.nextInt(10) + " 02:03:04.000000");
    for (Map.Entry<String, String> e : values.entrySet()) {
      int pick = random.nextInt(12);
      if (pick == 0) {
        row.put(e.getKey(), GoldenGateFiles.NULL);
      } else if (pick != 1) { // 1: the column is left out
        row.put(e.getKey(), e.getValue());
      }
    }
    return row;
  }

  private static final String CHARS = "abcXYZ 019 .-_/\u00e9\u00fc\u65e5\u672c\ud83d\ude00\"'\t\n";
  private static final String WITH_REFERENCES = CHARS + "<>&"; // written as &lt; &gt; &amp;: the record is StAX's

  private static String randomText(Random random, int max) {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(max + 1);
    String chars = random.nextInt(8) == 0 ? WITH_REFERENCES : CHARS;
    while (s.length() < n) {
      int at = random.nextInt(chars.length());
      char c = chars.charAt(at);
      if (Character.isHighSurrogate(c)) {
        s.append(c).append(chars.charAt(at + 1));
      } else if (!Character.isLowSurrogate(c)) {
        s.append(c);
      }
    }
    return s.toString();
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
