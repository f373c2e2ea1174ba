package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the body of a WRITE/UPDATE/DELETE_ROWS event (v1, or v2 with its extra data) straight into
 * {@link Row}s of the table's schema:
 *
 * <pre>
 *   table id u48 | flags u16 | [v2: extra length u16, extra data] | column count (packed)
 *   columns-present bitmap | [UPDATE: columns-present-after bitmap]
 *   rows: null bitmap of the present columns, then each non-NULL value by its column's decoder
 * </pre>
 *
 * Rows of tables the filter excludes are skipped without decoding. Not thread-safe (it reads the table
 * registry); used by the binlog reader thread only.
 */
final class RowsDecoder {
  private final TableRegistry tables;

  RowsDecoder(TableRegistry tables) {
    this.tables = tables;
  }

  EventData decode(byte[] body, Operation op, boolean v2) {
    ByteReader in = new ByteReader(body);
    long tableId = in.le(6);
    MappedTable table = tables.byId(tableId);
    if (table == null) {
      return new DecodeFailure(new FetcherException("row event for table id " + tableId
          + " without its table-map event; the fetcher must start at a transaction boundary"), true);
    }
    if (!table.captured()) {
      return RowsData.SKIPPED;
    }
    TableShape shape = table.shape();
    TableSchema schema = shape.schema();
    int column = -1;
    try {
      in.u16(); // flags
      if (v2) {
        in.advance(in.u16() - 2);
      }
      int columns = in.packedInt();
      checkFull(table, columns, TableMapParser.bitmapLsbFirst(in, columns));
      if (op == Operation.UPDATE) {
        checkFull(table, columns, TableMapParser.bitmapLsbFirst(in, columns));
      }
      List<Row> images = new ArrayList<>(op == Operation.UPDATE ? 2 : 1);
      ColumnDecoder[] decoders = shape.decoders();
      int nullBytes = (columns + 7) >>> 3;
      byte[] buf = in.array();
      while (in.hasRemaining()) {
        int nulls = in.advance(nullBytes);
        Object[] values = new Object[columns];
        for (column = 0; column < columns; column++) {
          values[column] = (buf[nulls + (column >>> 3)] & (1 << (column & 7))) != 0 ? null : decoders[column].decode(in);
        }
        column = -1;
        // each value comes from its column's decoder; the frame encoder checks type and range again as it writes
        images.add(Row.ofChecked(schema, values));
      }
      return new RowsData(schema, op, images, body.length);
    } catch (FetcherException e) {
      return new DecodeFailure(e, true);
    } catch (RuntimeException e) {
      String where = column >= 0 ? schema.qualifiedName() + "." + schema.column(column).name() : schema.qualifiedName();
      return new DecodeFailure(new FetcherException("cannot decode a row of " + where + ": " + e.getMessage()
          + "; the fetcher stops rather than publish a wrong value", e), true);
    }
  }

  private static void checkFull(MappedTable table, int columns, boolean[] present) {
    if (columns != table.shape().schema().columnCount()) {
      throw new FetcherException(table.qualifiedName() + ": row event has " + columns + " columns, its table map "
          + table.shape().schema().columnCount());
    }
    for (boolean p : present) {
      if (!p) {
        throw new FetcherException("a row event of " + table.qualifiedName() + " lacks columns: binlog_row_image is not"
            + " FULL for the session that wrote it; SET GLOBAL binlog_row_image=FULL (and in the server's configuration)");
      }
    }
  }
}
