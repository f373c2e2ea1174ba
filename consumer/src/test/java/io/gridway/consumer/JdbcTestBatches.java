package io.gridway.consumer;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.ErrorFrame;
import io.gridway.core.wire.FrameEncoder;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * For the tests of {@code io.gridway.applier.jdbc}: real {@link Batch}es (wire-encoded and decoded, as the
 * runtime builds them) from core transactions of any tables. Batch and Window have package-private constructors.
 */
public final class JdbcTestBatches {
  private JdbcTestBatches() {}

  /** One batch of whole windows; {@code micro} -1 for no micro-batching. */
  public static Batch batch(int partition, int micro, List<Transaction> transactions) {
    List<WindowData> data = windows(partition, transactions);
    List<Window> windows = new ArrayList<>();
    for (WindowData w : data) {
      windows.add(Window.whole(w));
    }
    return new Batch(0, partition, micro, windows, data.get(0).scn(), data.get(data.size() - 1).scn());
  }

  /**
   * A snapshot chunk's window carrying its key range, as the consumer builds it from a relay's answer; {@code chunk}
   * null for a chunk without rows of this partition (the window then has no events).
   */
  public static Batch chunk(int partition, long scn, Transaction chunk, SnapshotRange range) {
    WindowData rows = chunk == null ? null : windows(partition, List.of(chunk)).get(0);
    WindowData window = WindowData.withRange(rows, scn, scn * 1_000_000, partition, range);
    return new Batch(0, partition, -1, List.of(Window.whole(window)), scn, scn);
  }

  private static List<WindowData> windows(int partition, List<Transaction> transactions) {
    Map<Long, TableSchema> schemas = new LinkedHashMap<>();
    for (Transaction t : transactions) {
      for (ChangeEvent e : t.events()) {
        schemas.putIfAbsent(e.schema().id(), e.schema());
      }
    }
    FrameEncoder encoder = new FrameEncoder();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (TableSchema s : schemas.values()) {
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      encoder.writeSchema(s, buf);
      write(out, buf);
    }
    for (Transaction t : transactions) {
      write(out, encoder.encode(t));
    }
    List<WindowData> data = new ArrayList<>();
    FrameStream stream = new FrameStream(partition, 0, new SchemaCache(), new FrameStream.Sink() {
      @Override
      public boolean offer(WindowData window) {
        data.add(window);
        return true;
      }

      @Override
      public void error(ErrorFrame error) {}
    }, UnpooledByteBufAllocator.DEFAULT);
    stream.feed(Unpooled.wrappedBuffer(out.toByteArray()));
    stream.endOfResponse();
    return data;
  }

  private static void write(ByteArrayOutputStream out, ByteBuffer buf) {
    if (buf.position() != 0) {
      buf.flip();
    }
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);
    out.write(bytes, 0, bytes.length);
  }
}
