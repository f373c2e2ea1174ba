package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;
import java.util.List;

/**
 * What one JSON operation record said, field by field, and the record-level rules that turn it into a {@link
 * ChangeUnit}: one definition for both readers of the format ({@link JsonOpFastPath} and Jackson's, in {@link
 * JsonOpParser}), so they cannot drift apart. Mutable; one instance per parser, reset for every record. Not
 * thread-safe.
 */
final class JsonOpFields {
  TableEntry table;
  Operation op;
  long commitMicros;
  long csn;
  String xid;
  ChangeUnit.Boundary boundary;
  Object[] before;
  Object[] after;
  boolean sawBefore;
  boolean sawAfter;

  JsonOpFields reset() {
    table = null;
    op = null;
    commitMicros = 0;
    csn = -1;
    xid = null;
    boundary = ChangeUnit.Boundary.UNKNOWN;
    before = null;
    after = null;
    sawBefore = false;
    sawAfter = false;
    return this;
  }

  /**
   * The record's unit, after the checks every record must pass.
   *
   * @param bytes the record's length in the file
   * @throws MalformedRecordException when a required field or image is missing
   */
  ChangeUnit toUnit(int bytes) {
    if (table == null || op == null) {
      throw new MalformedRecordException("the record lacks " + (table == null ? "table" : "op_type"));
    }
    if (!sawBefore && !sawAfter && op != Operation.TRUNCATE) {
      throw new MalformedRecordException("the record has neither before nor after");
    }
    ParsedOp parsed = switch (op) {
      case INSERT -> new ParsedOp(table, op, null, require(after, "an insert", "after"));
      case UPDATE -> new ParsedOp(table, op, before, require(after, "an update", "after"));
      case DELETE -> new ParsedOp(table, op, require(before, "a delete", "before"), null);
      default -> new ParsedOp(table, op, null, null);
    };
    return new ChangeUnit(List.of(Images.complete(parsed)), csn, xid, commitMicros, boundary, bytes);
  }

  private static Object[] require(Object[] image, String what, String field) {
    if (image == null) {
      throw new MalformedRecordException(what + " needs a non-null " + field);
    }
    return image;
  }

  /** GoldenGate's transaction indicator: 0 begin, 1 middle, 2 end, 3 whole (or the letters B, M, E, W). */
  static ChangeUnit.Boundary boundary(String text) {
    return switch (text) {
      case "0", "1", "B", "M" -> ChangeUnit.Boundary.CONTINUES;
      case "2", "3", "E", "W" -> ChangeUnit.Boundary.ENDS;
      default -> throw new MalformedRecordException("txind '" + text + "' is not one of 0, 1, 2, 3");
    };
  }
}
