package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import java.util.List;

/** Builds binlog events as the client hands them over, laid out one after another in a file. For tests. */
final class Events {
  static final long SERVER_ID = 1;
  private long position = 4;
  private long timestamp = 1_700_000_000_000L;

  Event rotate(String file, long offset) {
    RotateEventData data = new RotateEventData();
    data.setBinlogFilename(file);
    data.setBinlogPosition(offset);
    position = offset;
    EventHeaderV4 header = header(EventType.ROTATE, 0);
    header.setNextPosition(0); // the rotate a server sends first is artificial: no position
    header.setTimestamp(0);
    return new Event(header, data);
  }

  Event gtid(long sequence, boolean standalone) {
    return gtid(0, sequence, standalone);
  }

  Event gtid(long domain, long sequence, boolean standalone) {
    MariadbGtidEventData data = new MariadbGtidEventData();
    data.setDomainId(domain);
    data.setSequence(sequence);
    data.setFlags(standalone ? MariadbGtidEventData.FL_STANDALONE : MariadbGtidEventData.FL_TRANSACTIONAL);
    return new Event(header(EventType.MARIADB_GTID, 42), data);
  }

  Event rows(TableSchema schema, Operation op, Row... images) {
    return new Event(header(EventType.WRITE_ROWS, 100), new RowsData(schema, op, List.of(images), 100));
  }

  Event skippedRows() {
    return new Event(header(EventType.WRITE_ROWS, 100), RowsData.SKIPPED);
  }

  Event xid() {
    XidEventData data = new XidEventData();
    data.setXid(position);
    return new Event(header(EventType.XID, 31), data);
  }

  Event query(String database, String sql) {
    QueryEventData data = new QueryEventData();
    data.setDatabase(database);
    data.setSql(sql);
    return new Event(header(EventType.QUERY, 60 + sql.length()), data);
  }

  Event heartbeat() {
    EventHeaderV4 header = new EventHeaderV4();
    header.setEventType(EventType.HEARTBEAT);
    header.setNextPosition(position); // where the server stands: the end of what it has sent
    return new Event(header, null);
  }

  Event with(EventType type, EventData data, int length) {
    return new Event(header(type, length), data);
  }

  long position() {
    return position;
  }

  private EventHeaderV4 header(EventType type, int length) {
    EventHeaderV4 header = new EventHeaderV4();
    header.setEventType(type);
    header.setServerId(SERVER_ID);
    header.setTimestamp(timestamp);
    header.setEventLength(length);
    position += length;
    header.setNextPosition(position);
    return header;
  }
}
