package io.gridway.relay;

import io.gridway.relay.source.SyntheticConfig;
import java.util.regex.Pattern;

/**
 * The source a relay reads ({@code source:} in the relay's YAML).
 *
 * @param id the source id (in URLs and schemas): letters, digits, '.', '_', '-', at most 64
 * @param partitions how many partitions the fetch policy spreads events over (0..partitions-1)
 * @param synthetic settings of the synthetic source (the only kind so far; binlog comes next)
 */
public record SourceConfig(String id, Integer partitions, SyntheticConfig synthetic) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  public SourceConfig {
    if (id == null) {
      throw new IllegalArgumentException("id is required");
    }
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("id must be 1..64 letters, digits, '.', '_' or '-', not '" + id + "'");
    }
    partitions = partitions == null ? 1 : partitions;
    if (partitions < 1 || partitions > 65536) {
      throw new IllegalArgumentException("partitions must be 1..65536, not " + partitions);
    }
    if (synthetic == null) {
      throw new IllegalArgumentException("synthetic is required (the only source kind so far)");
    }
  }
}
