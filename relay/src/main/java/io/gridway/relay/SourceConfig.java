package io.gridway.relay;

import io.gridway.core.fetch.Fetcher;
import io.gridway.fetcher.mysql.MysqlBinlogFetcher;
import io.gridway.fetcher.mysql.MysqlFetcherConfig;
import io.gridway.relay.source.SyntheticConfig;
import io.gridway.relay.source.SyntheticFetcher;
import java.time.Clock;
import java.util.regex.Pattern;

/**
 * The source a relay reads ({@code source:} in the relay's YAML): exactly one of {@code mysql} and
 * {@code synthetic}.
 *
 * @param id the source id (in URLs and schemas): letters, digits, '.', '_', '-', at most 64; with
 *     {@code mysql} it defaults to {@code mysql.source} and must equal it when both are given
 * @param partitions how many partitions events are spread over (0..partitions-1); the fetch policy's
 *     partition rules must stay below it
 * @param synthetic settings of the synthetic source
 * @param mysql settings of the MySQL/MariaDB binlog fetcher (its README lists the keys)
 */
public record SourceConfig(String id, Integer partitions, SyntheticConfig synthetic, MysqlFetcherConfig mysql) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  public SourceConfig {
    if ((synthetic == null) == (mysql == null)) {
      throw new IllegalArgumentException("set exactly one of synthetic and mysql");
    }
    if (id == null && mysql != null) {
      id = mysql.source();
    }
    if (id == null) {
      throw new IllegalArgumentException("id is required");
    }
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("id must be 1..64 letters, digits, '.', '_' or '-', not '" + id + "'");
    }
    if (mysql != null && !mysql.source().equals(id)) {
      throw new IllegalArgumentException("id '" + id + "' differs from mysql.source '" + mysql.source() + "'");
    }
    partitions = partitions == null ? 1 : partitions;
    if (partitions < 1 || partitions > 65536) {
      throw new IllegalArgumentException("partitions must be 1..65536, not " + partitions);
    }
  }

  /** The fetcher this config describes, not yet started. */
  Fetcher newFetcher(Clock clock) {
    return mysql != null ? new MysqlBinlogFetcher(mysql, clock) : new SyntheticFetcher(id, synthetic, partitions, clock);
  }
}
