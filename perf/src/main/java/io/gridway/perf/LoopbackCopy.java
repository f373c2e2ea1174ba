package io.gridway.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The loopback limit ("limit-loopback"): {@code bytes} bytes (the load's binlog size) written by one
 * thread and read by another over a plain TCP connection on 127.0.0.1 in 1 MiB writes — what moving the
 * stage's bytes between two processes costs at least on this machine, with no protocol and no parsing.
 * CPU seconds are this process's over the copy (both ends run in it). One instance per copy.
 */
final class LoopbackCopy {
  private static final int CHUNK = 1 << 20;

  /** The steady window is in bytes here; {@link Limits} scales it to the load's events. */
  record Copy(long bytes, double seconds, double cpuSeconds, SteadyWindow.Sample mark, SteadyWindow.Sample last) {}

  /** Copies {@code bytes}; notes time and CPU when the reader has {@code markBytes} (the steady window's start). */
  Copy copy(long bytes, long markBytes) throws IOException {
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET)) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      AtomicReference<SteadyWindow.Sample> mark = new AtomicReference<>();
      CompletableFuture<Long> reader = CompletableFuture.supplyAsync(() -> drain(server, markBytes, mark));
      double cpu = ProcCpu.self();
      long t0 = System.nanoTime();
      try (SocketChannel out = SocketChannel.open(server.getLocalAddress())) {
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        for (long left = bytes; left > 0; ) {
          chunk.clear().limit((int) Math.min(CHUNK, left));
          while (chunk.hasRemaining()) {
            left -= out.write(chunk);
          }
        }
      }
      long read = reader.join();
      long t1 = System.nanoTime();
      double cpu1 = ProcCpu.self();
      return new Copy(read, (t1 - t0) / 1e9, cpu1 - cpu, mark.get(), new SteadyWindow.Sample(t1, read, cpu1));
    }
  }

  private static long drain(ServerSocketChannel server, long markBytes, AtomicReference<SteadyWindow.Sample> mark) {
    try (SocketChannel in = server.accept()) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK);
      long total = 0;
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        total += n;
        buffer.clear();
        if (total >= markBytes && mark.get() == null) {
          mark.set(new SteadyWindow.Sample(System.nanoTime(), total, ProcCpu.self()));
        }
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
