package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * One top-level element of Classic Extract's FORMATXML output, read with the JDK's StAX:
 *
 * <pre>{@code
 * <transaction timestamp="2024-05-01 10:00:00.000000">         (absent under NOTRANS)
 *   <dbupdate table="HR.EMP" type="update" image="before">      (GETUPDATEBEFORES: the before image)
 *     <columns><column name="ID" key="true">7</column> ... </columns>
 *     <tokens><token name="TK-CSN">1234</token><token name="TK-XID">5.6.7</token></tokens>
 *   </dbupdate>
 *   <dbupdate table="HR.EMP" type="update"> ... </dbupdate>    (the after image)
 * </transaction>
 * }</pre>
 *
 * <p>A column is NULL when it carries {@code isNull="true"}; a column that is not written at all is missing
 * (see {@link Images}). Binary values are Base64, XML from CLOBs is in CDATA sections. An update's before image
 * is held until its after image arrives, also across records (NOTRANS writes each dbupdate on its own).
 */
final class XmlTransactionParser implements UnitParser {
  private final XMLInputFactory factory;
  private final XmlFastPath fastPath;
  private final SchemaDirectory schemas;
  private final String csnToken;
  private final String xidToken;
  private Object[] heldBefore; // an update's before image waiting for its after image
  private TableEntry heldTable;

  XmlTransactionParser(SchemaDirectory schemas, String csnToken, String xidToken) {
    this.schemas = schemas;
    this.csnToken = csnToken;
    this.xidToken = xidToken;
    this.factory = newFactory();
    this.fastPath = new XmlFastPath(schemas, csnToken, xidToken);
  }

  /**
   * The StAX factory of the fetcher and of {@link TrailLimitReader} (the same tokenizer for both): no DTDs (no external
   * entities, ever), coalesced text, and, where the implementation offers it (the JDK's does, as {@code
   * reuse-instance}), one reader reset for every record instead of a new one: building a reader per record was a
   * tenth of the XML fetcher's time.
   */
  static XMLInputFactory newFactory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    if (factory.isPropertySupported(REUSE_INSTANCE)) {
      factory.setProperty(REUSE_INSTANCE, Boolean.TRUE); // a closed reader is reset and handed out again
    }
    return factory;
  }

  private static final String REUSE_INSTANCE = "reuse-instance";

  /** The values one dbupdate element yields, before pairing. */
  static final class Update {
    TableEntry table;
    Operation op;
    boolean beforeImage;
    Object[] values;
    long csn = -1;
    String xid;
  }

  @Override
  public ChangeUnit parse(byte[] buf, int start, int end) {
    if (!fastPath.read(buf, start, end)) {
      return parseWithStax(buf, start, end);
    }
    // The same rules, in the same order, as the StAX path applies them while it reads.
    List<ParsedOp> ops = new ArrayList<>(fastPath.updates.size());
    long[] csn = {-1};
    String[] xid = {null};
    for (Update u : fastPath.updates) {
      accept(u, ops, csn, xid);
    }
    if (fastPath.transaction) {
      checkNoBeforeImageHeld();
    }
    return new ChangeUnit(ops, csn[0], xid[0], fastPath.commitMicros,
        fastPath.transaction ? ChangeUnit.Boundary.ENDS : ChangeUnit.Boundary.UNKNOWN, end - start);
  }

  /**
   * The record read by StAX: every record the fast path leaves (references, CDATA, comments, rare forms, anything
   * malformed), and the one place that words the format's errors.
   */
  ChangeUnit parseWithStax(byte[] buf, int start, int end) {
    XMLStreamReader r = null;
    try {
      r = factory.createXMLStreamReader(new ByteArrayInputStream(buf, start, end - start), "UTF-8");
      r.nextTag();
      List<ParsedOp> ops = new ArrayList<>();
      long[] csn = {-1};
      String[] xid = {null};
      long commitMicros = 0;
      ChangeUnit.Boundary boundary;
      if (r.getLocalName().equals("transaction")) {
        String timestamp = r.getAttributeValue(null, "timestamp");
        commitMicros = timestamp == null ? 0 : OracleTemporal.epochMicros(timestamp);
        while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
          if (!r.getLocalName().equals("dbupdate")) {
            throw new MalformedRecordException("<transaction> holds <" + r.getLocalName() + ">, expected <dbupdate>");
          }
          accept(dbupdate(r), ops, csn, xid);
        }
        boundary = ChangeUnit.Boundary.ENDS;
        checkNoBeforeImageHeld();
      } else {
        accept(dbupdate(r), ops, csn, xid);
        boundary = ChangeUnit.Boundary.UNKNOWN;
      }
      return new ChangeUnit(ops, csn[0], xid[0], commitMicros, boundary, end - start);
    } catch (XMLStreamException e) {
      throw new MalformedRecordException("not well-formed XML: " + e.getMessage());
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // closing a reader over a byte array cannot fail in a way that matters
        }
      }
    }
  }

  private void checkNoBeforeImageHeld() {
    if (heldBefore != null) {
      throw new MalformedRecordException("the transaction ends after an update's before image on " + heldTable.name()
          + " without its after image");
    }
  }

  private void accept(Update u, List<ParsedOp> ops, long[] csn, String[] xid) {
    if (u.csn >= 0) {
      if (csn[0] >= 0 && csn[0] != u.csn) {
        throw new MalformedRecordException("one transaction carries two CSNs, " + csn[0] + " and " + u.csn);
      }
      csn[0] = u.csn;
    }
    if (u.xid != null) {
      xid[0] = u.xid;
    }
    if (u.beforeImage) {
      if (u.op != Operation.UPDATE) {
        throw new MalformedRecordException("a before image (image=\"before\") of a " + u.op + "; only updates have one");
      }
      if (heldBefore != null) {
        throw new MalformedRecordException("two before images in a row on " + heldTable.name());
      }
      heldBefore = u.values;
      heldTable = u.table;
      return;
    }
    Object[] before = null;
    if (u.op == Operation.UPDATE) {
      if (heldBefore == null || heldTable != u.table) {
        throw new MalformedRecordException("update on " + u.table.name() + " has no before image"
            + " (add GETUPDATEBEFORES to the Extract parameters)");
      }
      before = heldBefore;
    } else if (heldBefore != null) {
      throw new MalformedRecordException("an update's before image on " + heldTable.name() + " is followed by a " + u.op);
    }
    heldBefore = null;
    heldTable = null;
    ParsedOp op = switch (u.op) {
      case INSERT -> new ParsedOp(u.table, u.op, null, u.values);
      case UPDATE -> new ParsedOp(u.table, u.op, before, u.values);
      case DELETE -> new ParsedOp(u.table, u.op, u.values, null);
      default -> new ParsedOp(u.table, u.op, null, null);
    };
    ops.add(Images.complete(op));
  }

  /** Reads one {@code <dbupdate>} element; the reader is at its start and ends at its end. */
  private Update dbupdate(XMLStreamReader r) throws XMLStreamException {
    Update u = new Update();
    String table = r.getAttributeValue(null, "table");
    String type = r.getAttributeValue(null, "type");
    if (table == null || type == null) {
      throw new MalformedRecordException("<dbupdate> lacks its " + (table == null ? "table" : "type") + " attribute");
    }
    u.table = schemas.table(table);
    u.op = switch (type) {
      case "insert" -> Operation.INSERT;
      case "update" -> Operation.UPDATE;
      case "delete" -> Operation.DELETE;
      case "truncate" -> Operation.TRUNCATE;
      default -> throw new MalformedRecordException("<dbupdate> type '" + type + "' is not one of insert, update, delete, truncate");
    };
    u.beforeImage = "before".equals(r.getAttributeValue(null, "image"));
    if (u.op != Operation.TRUNCATE) {
      u.values = Images.blank(u.table.decoders().length);
    }
    while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
      switch (r.getLocalName()) {
        case "columns" -> columns(r, u);
        case "tokens" -> tokens(r, u);
        default -> throw new MalformedRecordException("<dbupdate> holds <" + r.getLocalName() + ">, expected <columns> or <tokens>");
      }
    }
    return u;
  }

  private void columns(XMLStreamReader r, Update u) throws XMLStreamException {
    ValueDecoder[] decoders = u.table.decoders();
    int expected = 0;
    while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
      if (!r.getLocalName().equals("column")) {
        throw new MalformedRecordException("<columns> holds <" + r.getLocalName() + ">, expected <column>");
      }
      String name = r.getAttributeValue(null, "name");
      if (name == null) {
        throw new MalformedRecordException("<column> lacks its name attribute");
      }
      if (u.values == null) {
        throw new MalformedRecordException("a truncate carries no columns");
      }
      int index = u.table.indexOf(name, expected);
      if (index < 0) {
        throw new MalformedRecordException("column " + name + " is not in the schema file of " + u.table.name());
      }
      boolean isNull = "true".equals(r.getAttributeValue(null, "isNull"));
      String text = r.getElementText();
      try {
        u.values[index] = isNull ? null : decoders[index].fromText(text);
      } catch (MalformedRecordException e) {
        throw new MalformedRecordException(u.table.name() + "." + name + ": " + e.getMessage(), e);
      }
      expected = index + 1;
    }
  }

  private void tokens(XMLStreamReader r, Update u) throws XMLStreamException {
    while (r.nextTag() == XMLStreamConstants.START_ELEMENT) {
      String name = r.getAttributeValue(null, "name");
      String text = r.getElementText();
      if (csnToken.equals(name)) {
        u.csn = UnitParser.csn(text, csnToken);
      } else if (xidToken.equals(name)) {
        u.xid = text.trim();
      }
    }
  }
}
