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
 *   type: logging      # null | logging | jdbc
 *   output: events.jsonl   # logging only; "-" for standard output
 *   jdbc: {url: jdbc:postgresql://db/warehouse, user: gridway, passwordFile: /run/secrets/pw}   # jdbc only
 * </pre>
 *
 * @param consumer the library configuration
 * @param checkpoints where the file checkpoint store keeps its files (not with the jdbc applier: its checkpoints are in the target)
 * @param applier which applier
 */
public record ServiceConfig(
    @JsonProperty(required = true) ConsumerConfig consumer,
    Checkpoints checkpoints,
    Applier applier) {

  public ServiceConfig {
    if (consumer == null) {
      throw new IllegalArgumentException("consumer: required");
    }
    if (checkpoints == null && (applier == null || !applier.type().equals("jdbc"))) {
      throw new IllegalArgumentException("checkpoints: required (checkpoints.dir)");
    }
    if (consumer.partitions().isEmpty()) {
      throw new IllegalArgumentException("consumer.partitions: the service needs at least one partition");
    }
    applier = applier == null ? new Applier(null, null, null) : applier;
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
   * @param type {@code null} (count only, default), {@code logging} (JSON lines) or {@code jdbc}
   * @param output the logging applier's file, or {@code -} for standard output (default)
   * @param jdbc the JDBC applier's target (type {@code jdbc} only); its checkpoints live in the target
   */
  public record Applier(String type, String output, Jdbc jdbc) {
    public Applier {
      type = type == null ? "null" : type.toLowerCase(Locale.ROOT);
      if (!List.of("null", "logging", "jdbc").contains(type)) {
        throw new IllegalArgumentException("applier.type: '" + type + "' is not one of null, logging, jdbc");
      }
      output = output == null ? "-" : output;
      if (type.equals("jdbc") && jdbc == null) {
        throw new IllegalArgumentException("applier.jdbc: required for applier.type jdbc (url, user, ...)");
      }
    }
  }

  /**
   * The JDBC applier's settings (consumer/JDBC.md).
   *
   * @param url the target's JDBC URL
   * @param user the user
   * @param passwordFile a file holding the password (trailing newline ignored), or null
   * @param passwordEnv an environment variable holding the password, or null (neither: no password)
   * @param dialect {@code mariadb}, {@code mysql}, {@code postgresql} or {@code phoenix}; default from the URL
   * @param poolSize connections (default: partitions × microBatch.count + 2, one per lane)
   * @param schemaChange {@code apply}, {@code ignore} or {@code stop} (default)
   * @param policy a policy file whose {@code route} and {@code conflict} rules apply, or null (identity, source-wins)
   * @param origin the grid's origin id to tag target transactions with, or null
   */
  public record Jdbc(@JsonProperty(required = true) String url, String user, Path passwordFile, String passwordEnv,
      String dialect, Integer poolSize, String schemaChange, Path policy, String origin) {
    public Jdbc {
      if (url == null || !url.startsWith("jdbc:")) {
        throw new IllegalArgumentException("applier.jdbc.url: required, a jdbc: URL");
      }
      if (poolSize != null && poolSize < 1) {
        throw new IllegalArgumentException("applier.jdbc.poolSize: at least 1, not " + poolSize);
      }
    }
  }
}
