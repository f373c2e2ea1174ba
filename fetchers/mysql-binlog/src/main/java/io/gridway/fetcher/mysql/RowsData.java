package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import java.util.List;

/**
 * A decoded row event: its table's schema, the operation and the row images, already checked against the
 * schema. For an UPDATE the images alternate before, after, before, after. Immutable.
 *
 * @param schema null when the table is not captured (the event was skipped without decoding)
 * @param bytes the event body's size, to bound what a transaction holds in memory
 */
record RowsData(TableSchema schema, Operation op, List<Row> images, int bytes) implements EventData {
  static final RowsData SKIPPED = new RowsData(null, Operation.INSERT, List.of(), 0);

  boolean skipped() {
    return schema == null;
  }

  /** The number of changed rows. */
  int rows() {
    return op == Operation.UPDATE ? images.size() / 2 : images.size();
  }
}
