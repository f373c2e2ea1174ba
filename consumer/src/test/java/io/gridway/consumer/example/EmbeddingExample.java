package io.gridway.consumer.example;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.Window;
import io.gridway.consumer.checkpoint.FileCheckpointStore;
import io.gridway.core.event.ChangeEvent;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * The embedding example of {@code consumer/README.md}, kept compiling (and run by a test) so the README
 * cannot rot: prints every change of partitions 0 and 1 of source {@code src}.
 *
 * <p>Run against a relay: {@code java -cp ... io.gridway.consumer.example.EmbeddingExample http://127.0.0.1:8080}.
 */
public final class EmbeddingExample {
  private EmbeddingExample() {}

  public static GridwayConsumer start(URI relay, Path checkpoints) {
    ConsumerConfig config = ConsumerConfig.of("src", List.of(relay))
        .withGroup("example")
        .withPartitions(List.of(0, 1));
    GridwayConsumer consumer = GridwayConsumer.builder(config)
        .checkpointStore(new FileCheckpointStore(checkpoints))
        .handler(batch -> {
          // One partition's whole transactions, in SCN order. Return = applied; throw = retry.
          for (Window window : batch.windows()) {
            for (ChangeEvent event : window.events()) {
              System.out.println(window.scn() + " " + event.op() + " " + event.schema().qualifiedName() + " " + event.key());
            }
          }
        })
        .build();
    consumer.start();
    return consumer;
  }

  public static void main(String[] args) throws InterruptedException {
    GridwayConsumer consumer = start(URI.create(args[0]), Path.of("checkpoints"));
    Runtime.getRuntime().addShutdownHook(new Thread(consumer::stop));
    Thread.currentThread().join();
  }
}
