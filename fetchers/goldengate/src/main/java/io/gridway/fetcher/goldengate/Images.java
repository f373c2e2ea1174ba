package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Operation;
import io.gridway.core.schema.TableSchema;

/**
 * Completes row images whose columns GoldenGate left out ("missing", as opposed to NULL): an update's after
 * image takes an unchanged column from its before image; a delete's before image may hold only the key (the
 * other columns become NULL). Any other gap is an error naming the column and the Extract setting that fills it.
 */
final class Images {
  /** Marks a column the record did not carry. */
  static final Object MISSING = new Object() {
    @Override
    public String toString() {
      return "<missing>";
    }
  };

  private Images() {}

  static Object[] blank(int width) {
    Object[] values = new Object[width];
    java.util.Arrays.fill(values, MISSING);
    return values;
  }

  /** Checks and completes the images of one operation; returns it. */
  static ParsedOp complete(ParsedOp op) {
    TableSchema schema = op.table().schema();
    if (op.op() == Operation.UPDATE && op.before() == null) {
      throw new MalformedRecordException("update on " + op.table().name() + " has no before image"
          + " (add GETUPDATEBEFORES / LOGALLSUPCOLS to the Extract parameters)");
    }
    Object[] before = op.before();
    Object[] after = op.after();
    for (int i = 0; i < schema.columnCount(); i++) {
      if (after != null && after[i] == MISSING) {
        if (before != null && before[i] != MISSING) {
          after[i] = before[i];
        } else {
          throw missing(op, i, "after");
        }
      }
      if (before != null && before[i] == MISSING) {
        if (op.op() == Operation.DELETE && !isKey(schema, i)) {
          before[i] = null;
        } else if (op.op() == Operation.UPDATE && after != null) {
          before[i] = after[i]; // a compressed update: the column did not change
        } else {
          throw missing(op, i, "before");
        }
      }
    }
    return op;
  }

  private static boolean isKey(TableSchema schema, int column) {
    for (int k = 0; k < schema.keySize(); k++) {
      if (schema.keyIndex(k) == column) {
        return true;
      }
    }
    return false;
  }

  private static MalformedRecordException missing(ParsedOp op, int column, String image) {
    return new MalformedRecordException(op.op() + " on " + op.table().name() + " lacks column "
        + op.table().schema().column(column).name() + " in its " + image + " image (capture full images: NOCOMPRESSUPDATES,"
        + " GETUPDATEBEFORES, LOGALLSUPCOLS)");
  }
}
