package io.gridway.relay.policy;

import java.time.Duration;
import java.util.List;

/**
 * The fetch policy ({@code policy:} in the relay's YAML).
 *
 * @param files policy files applied in order to every transaction; empty means publish everything
 * @param reloadInterval how often the files' modification times are checked; 0 turns hot reload off;
 *     default 1s
 */
public record PolicyConfig(List<String> files, Duration reloadInterval) {
  public PolicyConfig {
    files = files == null ? List.of() : List.copyOf(files);
    reloadInterval = reloadInterval == null ? Duration.ofSeconds(1) : reloadInterval;
    if (reloadInterval.isNegative()) {
      throw new IllegalArgumentException("reloadInterval cannot be negative");
    }
  }

  public static PolicyConfig none() {
    return new PolicyConfig(null, null);
  }
}
