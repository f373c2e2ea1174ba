package io.gridway.perf;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.gridway.perf.SourceDb.BinlogPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw limit ("limit-binlog"): a bare {@link BinaryLogClient} with its stock deserializer, reading
 * from {@code start} to {@code end}, parsing every event and discarding it but for a row count. Runs in
 * this JVM on the calling thread; its CPU is this process's CPU over the read (nothing else runs then).
 * One instance per read.
 */
final class RawBinlogReader {
  private final SourceDb db;

  RawBinlogReader(SourceDb db) {
    this.db = db;
  }

  /**
   * @param mark the progress when the rows first reached the warm-up mark (null when they never did)
   * @param last the progress at the end of the read
   */
  record Read(long rows, double seconds, double cpuSeconds, SteadyWindow.Sample mark, SteadyWindow.Sample last) {}

  /** Reads the range; notes time and CPU when {@code markRows} rows have been read (the steady window's start). */
  Read read(BinlogPosition start, BinlogPosition end, int serverId, long markRows) throws IOException {
    BinaryLogClient client = new BinaryLogClient(db.host(), db.port(), db.replicationUser(), db.replicationPassword());
    client.setServerId(serverId);
    client.setKeepAlive(false);
    client.setBinlogFilename(start.file());
    client.setBinlogPosition(start.offset());
    AtomicLong rows = new AtomicLong();
    AtomicLong file = new AtomicLong(start.fileIndex());
    SteadyWindow.Sample[] mark = new SteadyWindow.Sample[1]; // written and read on this thread (connect() runs the listener)
    client.registerEventListener(event -> {
      if (event.getHeader().getEventType() == EventType.ROTATE) {
        String name = ((RotateEventData) event.getData()).getBinlogFilename();
        file.set(Long.parseLong(name.substring(name.lastIndexOf('.') + 1)));
        // a ROTATE's next position is in the file it ends, not the one just set: it says nothing of the end
        return;
      }
      if (event.getData() instanceof WriteRowsEventData w) {
        rows.addAndGet(w.getRows().size());
      } else if (event.getData() instanceof UpdateRowsEventData u) {
        rows.addAndGet(u.getRows().size());
      } else if (event.getData() instanceof DeleteRowsEventData d) {
        rows.addAndGet(d.getRows().size());
      }
      if (mark[0] == null && rows.get() >= markRows) {
        mark[0] = new SteadyWindow.Sample(System.nanoTime(), rows.get(), ProcCpu.self());
      }
      long next = ((EventHeaderV4) event.getHeader()).getNextPosition();
      if (file.get() > end.fileIndex() || (file.get() == end.fileIndex() && next >= end.offset())) {
        try {
          client.disconnect();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    });
    double cpu = ProcCpu.self();
    long t0 = System.nanoTime();
    client.connect(); // reads on this thread until the listener disconnects at the end position
    long t1 = System.nanoTime();
    double cpu1 = ProcCpu.self();
    return new Read(rows.get(), (t1 - t0) / 1e9, cpu1 - cpu, mark[0], new SteadyWindow.Sample(t1, rows.get(), cpu1));
  }
}
