package io.gridway.relay.bench;

import com.sun.management.OperatingSystemMXBean;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.core.wire.FrameReader;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.http.HttpApiServer;
import io.gridway.relay.http.HttpConfig;
import io.gridway.relay.http.ServedSource;
import io.gridway.relay.publish.Publisher;
import io.gridway.relay.publish.SchemaRegistry;
import io.gridway.relay.source.SyntheticConfig;
import io.gridway.relay.source.SyntheticFetcher;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stage-2 drain benchmark (not a test): preloads the relay's buffer with N synthetic events of
 * ~1,100-byte rows, then measures 1, 2 and 3 HTTP readers on loopback each draining all of them with
 * long-polls (no apply), beside the same-run loopback limit: the same number of bytes written and
 * read over plain loopback sockets. Readers parse frames by header only (type and length; they count
 * EVENT frames and follow END_OF_WINDOW SCNs), or fully with the core decoder when
 * {@code -Dbench.decode=full}.
 *
 * <p>Properties: {@code bench.events} (480000), {@code bench.txn} (events per transaction, 1),
 * {@code bench.maxBytes} (per response, 1048576), {@code bench.decode} (header|full),
 * {@code bench.ioThreads} (2), {@code bench.rounds} (2; the best round is reported).
 */
public final class DrainBenchmark {
  private static final int EVENTS = Integer.getInteger("bench.events", 480_000);
  private static final int TXN = Integer.getInteger("bench.txn", 1);
  private static final int MAX_BYTES = Integer.getInteger("bench.maxBytes", 1 << 20);
  private static final boolean FULL = "full".equals(System.getProperty("bench.decode", "header"));
  private static final int IO_THREADS = Integer.getInteger("bench.ioThreads", 2);
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 2);

  private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Where reader time goes: waiting for the response head, reading the body, parsing frames (nanoseconds, all readers). */
  private static final AtomicLong HEAD_NANOS = new AtomicLong();
  private static final AtomicLong BODY_NANOS = new AtomicLong();
  private static final AtomicLong PARSE_NANOS = new AtomicLong();
  private static final AtomicLong REQUESTS = new AtomicLong();

  private DrainBenchmark() {}

  record Result(String what, int readers, long events, long bytes, double seconds, double processCpu, double readerCpu) {
    String row() {
      return String.format("| %s | %d | %,d | %.1f | %.3f | %,.0f | %,.1f | %.2f | %.2f |", what, readers, events,
          bytes / 1e6, seconds, events / seconds, bytes / 1e6 / seconds, processCpu, readerCpu);
    }
  }

  public static void main(String[] args) throws Exception {
    EventBuffer buffer = new EventBuffer(1L << 30, 64 << 20, 1 << 20, 0);
    SchemaRegistry schemas = new SchemaRegistry();
    CountDownLatch loaded = new CountDownLatch(1);
    Publisher publisher = new Publisher("bench", buffer, schemas);
    TransactionSink sink = new TransactionSink() {
      @Override
      public void accept(Transaction transaction) {
        publisher.accept(transaction);
        if (buffer.eventsPublished() >= EVENTS) {
          loaded.countDown();
        }
      }

      @Override
      public void heartbeat(Heartbeat heartbeat) {}

      @Override
      public void failed(FetcherException error) {
        throw error;
      }
    };
    SyntheticConfig synthetic = new SyntheticConfig(3, 1100, 0L, TXN, TXN, 0, 0, 1L, (long) EVENTS);
    long loadStart = System.nanoTime();
    try (SyntheticFetcher fetcher = new SyntheticFetcher("bench", synthetic, 8, Clock.systemUTC())) {
      fetcher.start(null, sink);
      loaded.await();
    }
    double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
    long total = buffer.usedBytes();
    System.out.printf("preloaded %,d events in %,d windows, %,d bytes of frames (%.0f bytes/event) in %.1f s%n",
        buffer.eventsPublished(), buffer.windowsPublished(), total, (double) total / buffer.eventsPublished(), loadSeconds);

    ServedSource source = new BenchSource(buffer, schemas);
    HttpConfig config = new HttpConfig("127.0.0.1", 0, IO_THREADS, null, null, null);
    HttpApiServer server = new HttpApiServer(config, List.of(source), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Clock.systemUTC());
    int port = server.start().getPort();
    List<Result> results = new ArrayList<>();
    try {
      for (int readers = 1; readers <= 3; readers++) {
        Result best = null;
        Result bestLimit = null;
        for (int round = 0; round < ROUNDS; round++) {
          Result r = drain(port, readers, buffer.eventsPublished());
          best = best == null || r.seconds() < best.seconds() ? r : best;
          Result limit = loopback(readers, total, buffer.eventsPublished());
          bestLimit = bestLimit == null || limit.seconds() < bestLimit.seconds() ? limit : bestLimit;
        }
        results.add(best);
        results.add(bestLimit);
      }
    } finally {
      server.close();
    }
    System.out.printf("%nrelay stage 2 drain, %s decode, %d event(s)/transaction, maxBytes %d, %d I/O threads, %d cores, best of %d%n%n",
        FULL ? "full" : "header-only", TXN, MAX_BYTES, IO_THREADS, Runtime.getRuntime().availableProcessors(), ROUNDS);
    System.out.println("| run | readers | events | MB | seconds | events/s | MB/s | CPU s (process) | CPU s (readers) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      System.out.println(r.row());
    }
    System.out.println();
    for (int i = 0; i < results.size(); i += 2) {
      System.out.printf("%d reader(s): %.0f%% of the loopback limit%n", results.get(i).readers(),
          100.0 * results.get(i + 1).seconds() / results.get(i).seconds());
    }
  }

  /** {@code readers} HTTP readers each draining every event with long-polls; aggregate figures. */
  private static Result drain(int port, int readers, long events) throws Exception {
    AtomicLong bytes = new AtomicLong();
    AtomicLong readerCpu = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    Throwable[] failure = new Throwable[1];
    for (int i = 0; i < readers; i++) {
      Thread t = new Thread(() -> {
        try {
          start.await();
          long cpu = THREADS.getCurrentThreadCpuTime();
          bytes.addAndGet(readAll(port, events));
          readerCpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu);
        } catch (Throwable e) {
          failure[0] = e;
        }
      }, "bench-reader-" + i);
      t.start();
      threads.add(t);
    }
    HEAD_NANOS.set(0);
    BODY_NANOS.set(0);
    PARSE_NANOS.set(0);
    REQUESTS.set(0);
    long cpu = OS.getProcessCpuTime();
    long began = System.nanoTime();
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    double seconds = (System.nanoTime() - began) / 1e9;
    if (failure[0] != null) {
      throw new IllegalStateException(failure[0]);
    }
    long requests = Math.max(1, REQUESTS.get());
    System.out.printf("  %d reader(s): %d requests; per request: %.2f ms to the response head, %.2f ms reading the body, %.2f ms parsing%n",
        readers, requests, HEAD_NANOS.get() / 1e6 / requests, BODY_NANOS.get() / 1e6 / requests, PARSE_NANOS.get() / 1e6 / requests);
    return new Result("relay HTTP", readers, events * readers, bytes.get(), seconds, (OS.getProcessCpuTime() - cpu) / 1e9,
        readerCpu.get() / 1e9);
  }

  /** One reader: long-polls from since=0 until it has counted every event; returns body bytes read. */
  private static long readAll(int port, long events) throws IOException {
    ByteBuffer body = ByteBuffer.allocateDirect(MAX_BYTES + (70 << 20));
    ByteBuffer head = ByteBuffer.allocate(4096);
    FrameReader reader = FULL ? new FrameReader() : null;
    long since = 0;
    long seen = 0;
    long bytes = 0;
    try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      while (seen < events) {
        channel.write(StandardCharsets.US_ASCII.encode("GET /v1/sources/bench/events?since=" + since + "&maxBytes=" + MAX_BYTES
            + "&waitMs=0 HTTP/1.1\r\nHost: bench\r\n\r\n"));
        long t0 = System.nanoTime();
        int length = readHead(channel, head, body);
        long t1 = System.nanoTime();
        while (body.position() < length) {
          if (channel.read(body) < 0) {
            throw new IOException("connection closed");
          }
        }
        long t2 = System.nanoTime();
        body.flip();
        int pos = 0;
        while (pos < length) {
          int type = body.get(pos + 3);
          int frame = 12 + body.getInt(pos + 4);
          if (type == 2) {
            seen++;
          } else if (type == 3 || type == 4) {
            since = body.getLong(pos + 12);
          }
          pos += frame;
        }
        if (reader != null) {
          body.position(0).limit(length);
          while (reader.next(body) != null) {
            // decode and verify every frame (CRC, payload, rows)
          }
        }
        bytes += length;
        body.clear();
        HEAD_NANOS.addAndGet(t1 - t0);
        BODY_NANOS.addAndGet(t2 - t1);
        PARSE_NANOS.addAndGet(System.nanoTime() - t2);
        REQUESTS.incrementAndGet();
      }
    }
    return bytes;
  }

  /** Reads the response head; returns Content-Length, leaving any body bytes already read in {@code body}. */
  private static int readHead(SocketChannel channel, ByteBuffer head, ByteBuffer body) throws IOException {
    head.clear();
    while (true) {
      if (channel.read(head) < 0) {
        throw new IOException("connection closed");
      }
      String text = new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        if (!text.startsWith("HTTP/1.1 200")) {
          throw new IOException("unexpected response: " + text.substring(0, Math.min(200, text.length())));
        }
        int at = text.toLowerCase().indexOf("content-length:");
        int length = Integer.parseInt(text.substring(at + 15, text.indexOf("\r\n", at)).trim());
        body.put(head.array(), end + 4, head.position() - end - 4);
        return length;
      }
    }
  }

  /** The same bytes over plain loopback sockets, {@code pairs} connections at once, in writes of maxBytes. */
  private static Result loopback(int pairs, long total, long events) throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress("127.0.0.1", 0));
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      List<Thread> threads = new ArrayList<>();
      AtomicLong readerCpu = new AtomicLong();
      CountDownLatch start = new CountDownLatch(1);
      for (int i = 0; i < pairs; i++) {
        Thread reader = new Thread(() -> {
          try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            start.await();
            long cpu = THREADS.getCurrentThreadCpuTime();
            ByteBuffer in = ByteBuffer.allocateDirect(MAX_BYTES);
            long got = 0;
            while (got < total) {
              int n = channel.read(in);
              if (n < 0) {
                break;
              }
              got += n;
              in.clear();
            }
            readerCpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
        reader.start();
        threads.add(reader);
        SocketChannel accepted = server.accept();
        Thread writer = new Thread(() -> {
          try (SocketChannel channel = accepted) {
            start.await();
            ByteBuffer out = ByteBuffer.allocateDirect(MAX_BYTES);
            long sent = 0;
            while (sent < total) {
              out.clear().limit((int) Math.min(MAX_BYTES, total - sent));
              while (out.hasRemaining()) {
                sent += channel.write(out);
              }
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
        writer.start();
        threads.add(writer);
      }
      long cpu = OS.getProcessCpuTime();
      long began = System.nanoTime();
      start.countDown();
      for (Thread t : threads) {
        t.join();
      }
      double seconds = (System.nanoTime() - began) / 1e9;
      return new Result("loopback limit", pairs, events * pairs, total * pairs, seconds, (OS.getProcessCpuTime() - cpu) / 1e9,
          readerCpu.get() / 1e9);
    }
  }

  /** The benchmark's one source. */
  private record BenchSource(EventBuffer buffer, SchemaRegistry schemas) implements ServedSource {
    @Override
    public String id() {
      return "bench";
    }

    @Override
    public boolean servesPartition(int partition) {
      return partition >= 0 && partition < 8;
    }

    @Override
    public List<Integer> partitions() {
      return List.of(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Override
    public boolean ready() {
      return true;
    }

    @Override
    public Map<String, Object> status() {
      return Map.of();
    }
  }

}
