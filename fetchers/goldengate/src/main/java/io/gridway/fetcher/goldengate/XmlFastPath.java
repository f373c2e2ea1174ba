package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a FORMATXML record straight from its bytes in one pass, for the records Classic Extract usually writes: plain
 * text and attributes (no references, CDATA or comments inside the record). StAX was the XML fetcher's cost: a
 * general parser building a String per token and per attribute, about two thirds of its thread per 1,100-byte row.
 * Here each byte is looked at once ({@link XmlCursor}) and nothing is made but the values.
 *
 * <p>It is never more lenient than StAX: whatever it does not handle exactly as the StAX path would (see {@link
 * XmlCursor}, and any value its column refuses, an unknown table or column, an element out of place) makes {@link
 * #read} return false without changing any state, and the caller reads the record again with StAX, which then also
 * words the error. Record-level rules (pairing before and after images, one CSN per transaction) are applied to the
 * result by {@link XmlTransactionParser} itself, the same code for both paths (XmlFastPathTest).
 *
 * <p>Not thread-safe: one per parser, on the fetcher's thread.
 */
final class XmlFastPath {
  private static final byte[] TRANSACTION = JsonCursor.ascii("transaction");
  private static final byte[] DBUPDATE = JsonCursor.ascii("dbupdate");
  private static final byte[] COLUMNS = JsonCursor.ascii("columns");
  private static final byte[] COLUMN = JsonCursor.ascii("column");
  private static final byte[] TOKENS = JsonCursor.ascii("tokens");
  private static final byte[] TIMESTAMP = JsonCursor.ascii("timestamp");
  private static final byte[] TABLE = JsonCursor.ascii("table");
  private static final byte[] TYPE = JsonCursor.ascii("type");
  private static final byte[] IMAGE = JsonCursor.ascii("image");
  private static final byte[] BEFORE = JsonCursor.ascii("before");
  private static final byte[] NAME = JsonCursor.ascii("name");
  private static final byte[] IS_NULL = JsonCursor.ascii("isNull");
  private static final byte[] TRUE = JsonCursor.ascii("true");
  private static final byte[] INSERT = JsonCursor.ascii("insert");
  private static final byte[] UPDATE = JsonCursor.ascii("update");
  private static final byte[] DELETE = JsonCursor.ascii("delete");
  private static final byte[] TRUNCATE = JsonCursor.ascii("truncate");

  private final XmlCursor in = new XmlCursor();
  private final SchemaDirectory schemas;
  private final byte[] csnToken;
  private final byte[] xidToken;
  private final String csnTokenName;
  private final Map<TableEntry, byte[][]> columnNames = new IdentityHashMap<>();
  // The operations of one transaction share their table; transactions often share their timestamp's second.
  private TableEntry lastTable;
  private byte[] lastTableName = new byte[0];
  private byte[][] lastColumns;
  private byte[] lastTimestamp; // null before the first
  private long lastTimestampMicros;

  // what read() found
  /** Whether the record is a {@code <transaction>} (else a lone {@code <dbupdate>}, NOTRANS). */
  boolean transaction;
  long commitMicros;
  final List<XmlTransactionParser.Update> updates = new ArrayList<>();

  XmlFastPath(SchemaDirectory schemas, String csnToken, String xidToken) {
    this.schemas = schemas;
    this.csnTokenName = csnToken;
    this.csnToken = csnToken.getBytes(StandardCharsets.UTF_8);
    this.xidToken = xidToken.getBytes(StandardCharsets.UTF_8);
  }

  /** Reads the record {@code buf[start, end)} into {@link #updates} and the fields above; false when it is StAX's. */
  boolean read(byte[] buf, int start, int end) {
    updates.clear();
    in.start(buf, start, end);
    try {
      readRecord();
      return true;
    } catch (JsonCursor.NotHandled | MalformedRecordException e) {
      updates.clear();
      return false; // StAX reads it again, and says what is wrong if something is
    } finally {
      in.release();
    }
  }

  private void readRecord() {
    in.startTag();
    commitMicros = 0;
    if (in.is(in.nameFrom, in.nameTo, TRANSACTION)) {
      transaction = true;
      int timestamp = in.attribute(TIMESTAMP);
      if (timestamp >= 0) {
        commitMicros = timestamp(timestamp);
      }
      if (!in.selfClosing) {
        while (true) {
          in.skipSpace();
          if (in.atEndTag()) {
            in.endTag(TRANSACTION);
            break;
          }
          in.startTag();
          if (!in.is(in.nameFrom, in.nameTo, DBUPDATE)) {
            throw JsonCursor.NOT_HANDLED;
          }
          updates.add(dbupdate());
        }
      }
    } else if (in.is(in.nameFrom, in.nameTo, DBUPDATE)) {
      transaction = false;
      updates.add(dbupdate());
    } else {
      throw JsonCursor.NOT_HANDLED;
    }
    if (in.pos != in.end) {
      throw JsonCursor.NOT_HANDLED; // the record scanner ends a record at its root's end tag
    }
  }

  private long timestamp(int attribute) {
    int from = in.attributes[4 * attribute + 2];
    int to = in.attributes[4 * attribute + 3];
    if (lastTimestamp != null && Arrays.equals(in.b, from, to, lastTimestamp, 0, lastTimestamp.length)) {
      return lastTimestampMicros;
    }
    long micros = OracleTemporal.epochMicros(in.value(attribute));
    lastTimestamp = Arrays.copyOfRange(in.b, from, to);
    lastTimestampMicros = micros;
    return micros;
  }

  /** One {@code <dbupdate>}, its start tag just read; ends past its end tag. */
  private XmlTransactionParser.Update dbupdate() {
    XmlTransactionParser.Update u = new XmlTransactionParser.Update();
    int table = in.attribute(TABLE);
    int type = in.attribute(TYPE);
    if (table < 0 || type < 0) {
      throw JsonCursor.NOT_HANDLED;
    }
    u.table = table(table);
    u.op = operation(type);
    int image = in.attribute(IMAGE);
    u.beforeImage = image >= 0 && in.valueIs(image, BEFORE);
    if (u.op != Operation.TRUNCATE) {
      u.values = Images.blank(u.table.decoders().length);
    }
    if (in.selfClosing) {
      return u;
    }
    while (true) {
      in.skipSpace();
      if (in.atEndTag()) {
        in.endTag(DBUPDATE);
        return u;
      }
      in.startTag();
      if (in.is(in.nameFrom, in.nameTo, COLUMNS)) {
        columns(u);
      } else if (in.is(in.nameFrom, in.nameTo, TOKENS)) {
        tokens(u);
      } else {
        throw JsonCursor.NOT_HANDLED;
      }
    }
  }

  private TableEntry table(int attribute) {
    int from = in.attributes[4 * attribute + 2];
    int to = in.attributes[4 * attribute + 3];
    TableEntry last = lastTable;
    if (last != null && Arrays.equals(in.b, from, to, lastTableName, 0, lastTableName.length)) {
      return last;
    }
    TableEntry table = schemas.table(in.value(attribute));
    lastTable = table;
    lastTableName = Arrays.copyOfRange(in.b, from, to);
    lastColumns = columnNames.computeIfAbsent(table, XmlFastPath::columnNames);
    return table;
  }

  private static byte[][] columnNames(TableEntry table) {
    byte[][] names = new byte[table.decoders().length][];
    for (int i = 0; i < names.length; i++) {
      names[i] = table.schema().column(i).name().getBytes(StandardCharsets.UTF_8);
    }
    return names;
  }

  private Operation operation(int attribute) {
    if (in.valueIs(attribute, INSERT)) {
      return Operation.INSERT;
    }
    if (in.valueIs(attribute, UPDATE)) {
      return Operation.UPDATE;
    }
    if (in.valueIs(attribute, DELETE)) {
      return Operation.DELETE;
    }
    if (in.valueIs(attribute, TRUNCATE)) {
      return Operation.TRUNCATE;
    }
    throw JsonCursor.NOT_HANDLED;
  }

  /** The {@code <columns>} element, its start tag just read. */
  private void columns(XmlTransactionParser.Update u) {
    if (in.selfClosing) {
      return;
    }
    ValueDecoder[] decoders = u.table.decoders();
    byte[][] names = lastColumns; // u.table is lastTable: read just before
    int expected = 0;
    while (true) {
      in.skipSpace();
      if (in.atEndTag()) {
        in.endTag(COLUMNS);
        return;
      }
      in.startTag();
      if (!in.is(in.nameFrom, in.nameTo, COLUMN)) {
        throw JsonCursor.NOT_HANDLED;
      }
      int name = in.attribute(NAME);
      if (name < 0 || u.values == null) {
        throw JsonCursor.NOT_HANDLED;
      }
      int nameFrom = in.attributes[4 * name + 2];
      int nameTo = in.attributes[4 * name + 3];
      int index;
      if (expected < names.length && in.is(nameFrom, nameTo, names[expected])) {
        index = expected;
      } else {
        index = u.table.indexOf(in.value(name), expected);
        if (index < 0) {
          throw JsonCursor.NOT_HANDLED;
        }
      }
      int isNull = in.attribute(IS_NULL);
      boolean nullValue = isNull >= 0 && in.valueIs(isNull, TRUE);
      in.elementText();
      u.values[index] = nullValue ? null : decoders[index].fromText(in.b, in.textFrom, in.textTo, in.textHigh);
      expected = index + 1;
    }
  }

  /** The {@code <tokens>} element, its start tag just read: the CSN and XID tokens; the others are skipped. */
  private void tokens(XmlTransactionParser.Update u) {
    if (in.selfClosing) {
      return;
    }
    while (true) {
      in.skipSpace();
      if (in.atEndTag()) {
        in.endTag(TOKENS);
        return;
      }
      in.startTag();
      int name = in.attribute(NAME);
      boolean csn = name >= 0 && in.valueIs(name, csnToken);
      boolean xid = !csn && name >= 0 && in.valueIs(name, xidToken);
      in.elementText();
      if (csn) {
        u.csn = csn();
      } else if (xid) {
        u.xid = in.textString().trim();
      }
    }
  }

  /** The CSN token's text of 1..18 digits; other forms go through the general rule. */
  private long csn() {
    int from = in.textFrom;
    int to = in.textTo;
    if (to > from && to - from < 19) {
      long value = 0;
      for (int i = from; i < to; i++) {
        int d = in.b[i] - '0';
        if (d < 0 || d > 9) {
          return UnitParser.csn(in.textString(), csnTokenName);
        }
        value = value * 10 + d;
      }
      if (value > 0) {
        return value;
      }
    }
    return UnitParser.csn(in.textString(), csnTokenName);
  }
}
