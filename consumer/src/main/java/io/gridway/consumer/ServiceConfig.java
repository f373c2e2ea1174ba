package io.gridway.consumer;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The consumer service's YAML file ({@code ConsumerMain --config consumer.yml}): the library's config plus
 * what the service wires around it.
 *
 * <pre>
 * consumer:            # ConsumerConfig: source, group, relays, partitions, pull, batch, microBatch, retry
 *   source: orders
 *   relays: [http://127.0.0.1:8080]
 *   partitions: [0, 1, 2]
 * checkpoints:
 *   dir: /var/lib/gridway/checkpoints
 * applier:
 *   type: logging      # null | logging
 *   output: events.jsonl   # logging only; "-" for standard output
 * </pre>
 *
 * @param consumer the library configuration
 * @param checkpoints where the file checkpoint store keeps its files
 * @param applier which applier
 */
public record ServiceConfig(
    @JsonProperty(required = true) ConsumerConfig consumer,
    @JsonProperty(required = true) Checkpoints checkpoints,
    Applier applier) {

  public ServiceConfig {
    if (consumer == null) {
      throw new IllegalArgumentException("consumer: required");
    }
    if (checkpoints == null) {
      throw new IllegalArgumentException("checkpoints: required (checkpoints.dir)");
    }
    if (consumer.partitions().isEmpty()) {
      throw new IllegalArgumentException("consumer.partitions: the service needs at least one partition");
    }
    applier = applier == null ? new Applier(null, null) : applier;
  }

  /** @param dir the file checkpoint store's directory */
  public record Checkpoints(@JsonProperty(required = true) Path dir) {
    public Checkpoints {
      if (dir == null) {
        throw new IllegalArgumentException("checkpoints.dir: required");
      }
    }
  }

  /**
   * @param type {@code null} (count only, default) or {@code logging} (JSON lines)
   * @param output the logging applier's file, or {@code -} for standard output (default)
   */
  public record Applier(String type, String output) {
    public Applier {
      type = type == null ? "null" : type.toLowerCase(Locale.ROOT);
      if (!List.of("null", "logging").contains(type)) {
        throw new IllegalArgumentException("applier.type: '" + type + "' is not one of null, logging");
      }
      output = output == null ? "-" : output;
    }
  }
}
