package io.gridway.relay;

import io.gridway.core.config.ConfigLoader;
import io.gridway.relay.buffer.BufferConfig;
import io.gridway.relay.http.HttpConfig;
import java.nio.file.Path;

/**
 * A relay's whole configuration (one YAML file; see {@code relay/README.md}).
 *
 * @param source what to read
 * @param buffer the event buffer
 * @param http the HTTP API
 */
public record RelayConfig(SourceConfig source, BufferConfig buffer, HttpConfig http) {
  public RelayConfig {
    if (source == null) {
      throw new IllegalArgumentException("source is required");
    }
    buffer = buffer == null ? BufferConfig.defaults() : buffer;
    http = http == null ? HttpConfig.defaults() : http;
  }

  /** Loads and validates a YAML file; a {@link io.gridway.core.config.ConfigException} names file, line, key and reason. */
  public static RelayConfig load(Path file) {
    return ConfigLoader.load(file, RelayConfig.class);
  }

  /** Parses YAML text ({@code origin} names it in errors). */
  public static RelayConfig parse(String yaml, String origin) {
    return ConfigLoader.parse(yaml, origin, RelayConfig.class);
  }
}
