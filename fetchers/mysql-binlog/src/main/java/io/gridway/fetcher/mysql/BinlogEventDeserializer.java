package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.gridway.core.event.Operation;
import io.gridway.core.fetch.FetcherException;
import java.io.IOException;

/**
 * The client's event deserializer with this fetcher's table-map and row handling. Table maps go to the
 * {@link TableRegistry} as raw bytes (the stock deserializer would parse every one of them, and wraps
 * any custom table-map deserializer so that it parses twice); row events go to {@link RowsDecoder}.
 * Everything else keeps the client's own deserializers.
 *
 * <p>Not thread-safe; one per connection, used by the client's reader thread ({@link #stop} from any thread).
 */
final class BinlogEventDeserializer extends EventDeserializer {
  private final TableRegistry tables;
  private int checksumLength;
  private volatile boolean stopped;

  BinlogEventDeserializer(TableRegistry tables) {
    this.tables = tables;
    RowsDecoder rows = new RowsDecoder(tables);
    setEventDataDeserializer(EventType.WRITE_ROWS, new RowsEventDeserializer(rows, Operation.INSERT, false));
    setEventDataDeserializer(EventType.UPDATE_ROWS, new RowsEventDeserializer(rows, Operation.UPDATE, false));
    setEventDataDeserializer(EventType.DELETE_ROWS, new RowsEventDeserializer(rows, Operation.DELETE, false));
    setEventDataDeserializer(EventType.EXT_WRITE_ROWS, new RowsEventDeserializer(rows, Operation.INSERT, true));
    setEventDataDeserializer(EventType.EXT_UPDATE_ROWS, new RowsEventDeserializer(rows, Operation.UPDATE, true));
    setEventDataDeserializer(EventType.EXT_DELETE_ROWS, new RowsEventDeserializer(rows, Operation.DELETE, true));
    // MySQL's partial JSON updates (binlog_row_value_options=PARTIAL_JSON) carry diffs, not images
    setEventDataDeserializer(EventType.PARTIAL_UPDATE_ROWS_EVENT, in -> new DecodeFailure(new FetcherException(
        "the server writes partial JSON updates (binlog_row_value_options=PARTIAL_JSON); set"
            + " binlog_row_value_options='' so that row events carry whole images"), true));
  }

  /**
   * The session ended: table maps still in the client's buffer are passed over undecoded. Decoding one may query the
   * server (SHOW CREATE TABLE, information_schema), which is dead when it ended the session, so each would wait out
   * the connect timeout — hundreds of buffered table maps stalled the fetcher for minutes before it could move on.
   */
  void stop() {
    stopped = true;
  }

  @Override
  public Event nextEvent(ByteArrayInputStream in) throws IOException {
    Event event = super.nextEvent(in);
    if (event != null && event.getData() instanceof FormatDescriptionEventData format) {
      checksumLength = format.getChecksumType().getLength();
    }
    return event;
  }

  @Override
  public EventData deserializeTableMapEventData(ByteArrayInputStream in, EventHeader header) throws IOException {
    int bodyLength = (int) header.getDataLength() - checksumLength;
    byte[] body;
    in.enterBlock(bodyLength);
    try {
      body = in.read(bodyLength);
    } finally {
      in.skipToTheEndOfTheBlock();
      in.skip(checksumLength);
    }
    if (stopped) {
      return new DecodeFailure(new IllegalStateException("the replication session has ended"), false);
    }
    return tables.onTableMap(body);
  }
}
