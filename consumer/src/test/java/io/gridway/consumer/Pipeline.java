package io.gridway.consumer;

import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.consumer.partition.Partitioner;
import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.ErrorFrame;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A partition's dispatch side (buffer → dispatcher → lanes → committer → checkpoint writer) without a
 * puller, for tests that feed windows by hand.
 */
final class Pipeline implements AutoCloseable {
  final MemoryCheckpointStore store = new MemoryCheckpointStore();
  final PartitionState state = new PartitionState(0, 0, new PartitionListener() {});
  final PartitionBuffer buffer;
  final PartitionMetrics metrics;
  final Committer committer;
  final MicroBatchLanes lanes;
  final Dispatcher dispatcher;
  final CheckpointWriter writer;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
  private final Thread thread;

  Pipeline(ConsumerConfig.Batching limits, ConsumerConfig.Retry retry, int k, Partitioner partitioner, BatchHandler handler,
      long bufferBytes) {
    this(limits, retry, k, partitioner, handler, bufferBytes, Clock.systemUTC());
  }

  /** With the clock the lanes time an outage by. */
  Pipeline(ConsumerConfig.Batching limits, ConsumerConfig.Retry retry, int k, Partitioner partitioner, BatchHandler handler,
      long bufferBytes, Clock laneClock) {
    long generation = store.claim("g", 0);
    buffer = new PartitionBuffer(bufferBytes);
    metrics = new PartitionMetrics(new SimpleMeterRegistry(), Tags.empty(), buffer::heldBytes, 0, () -> 0);
    writer = new CheckpointWriter(store, new CheckpointWriter.CheckpointKey("g", 0, generation), executor, state,
        Clock.systemUTC(), () -> {});
    long[] micro = new long[k];
    committer = new Committer(new Committer.CommitterSetup(limits.maxInFlight(), 0, micro), buffer, writer, state, metrics,
        Clock.systemUTC());
    lanes = new MicroBatchLanes(k, "test", null, new MicroBatchLanes.ApplySetup(handler, retry, new Random(1), laneClock), committer, metrics,
        state);
    dispatcher = new Dispatcher(new Dispatcher.DispatchSetup(0, limits, partitioner, micro), buffer, committer, lanes,
        metrics);
    thread = new Thread(dispatcher, "test-dispatch");
    thread.start();
  }

  /** Decodes transactions into windows, as a puller would receive them. */
  static List<WindowData> windows(Transaction... transactions) {
    TestFrames frames = new TestFrames().schema();
    for (Transaction t : transactions) {
      frames.window(t);
    }
    List<WindowData> out = new ArrayList<>();
    FrameStream stream = new FrameStream(0, 0, new SchemaCache(), new FrameStream.Sink() {
      @Override
      public boolean offer(WindowData window) {
        out.add(window);
        return true;
      }

      @Override
      public void error(ErrorFrame error) {}
    }, UnpooledByteBufAllocator.DEFAULT);
    stream.feed(Unpooled.wrappedBuffer(frames.bytes()));
    stream.endOfResponse();
    return out;
  }

  void offer(List<WindowData> windows) {
    for (WindowData w : windows) {
      if (!buffer.tryOffer(w)) {
        throw new IllegalStateException("buffer full");
      }
    }
    buffer.publish();
  }

  long storedCheckpoint() {
    return store.read("g", 0).stream().filter(Checkpoint::isWhole).mapToLong(c -> c.scn().value()).findFirst().orElse(-1);
  }

  long[] storedMicro(int k) {
    long[] out = new long[k];
    Arrays.fill(out, -1);
    for (Checkpoint c : store.read("g", 0)) {
      if (!c.isWhole()) {
        out[c.microPartition()] = c.scn().value();
      }
    }
    return out;
  }

  @Override
  public void close() {
    dispatcher.stop();
    lanes.abandon();
    executor.shutdownNow();
    try {
      thread.join(5000);
      lanes.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
