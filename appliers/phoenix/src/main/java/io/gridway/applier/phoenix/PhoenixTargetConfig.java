package io.gridway.applier.phoenix;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The Phoenix applier's settings ({@code applier.phoenix}, README.md).
 *
 * @param url the Phoenix JDBC URL ({@code jdbc:phoenix:zk-host:port[:/hbase-root]})
 * @param mode {@code rows} (default: each source table mirrored through guarded upserts) or {@code change-log} (every
 *     change appended to one table)
 * @param saltBuckets {@code SALT_BUCKETS} of the tables this applier creates (1..256), or null for none
 * @param columnFamily the column family of their non-key columns (default Phoenix's {@code 0})
 * @param changeLogTable the change log's table in {@code change-log} mode (default {@code gridway_change_log})
 * @param policy an apply policy whose {@code route} and {@code storage} rules name and lay out the tables of rows mode,
 *     or null (source names, the settings above)
 */
public record PhoenixTargetConfig(@JsonProperty(required = true) String url, String mode, Integer saltBuckets,
    String columnFamily, String changeLogTable, Path policy) {

  /** How changes land in Phoenix. */
  enum Mode { ROWS, CHANGE_LOG }

  public PhoenixTargetConfig {
    if (url == null || !url.startsWith("jdbc:phoenix:")) {
      throw new IllegalArgumentException("applier.phoenix.url: required, a jdbc:phoenix: URL, not " + url);
    }
    if (mode != null && !mode.equals("rows") && !mode.equals("change-log")) {
      throw new IllegalArgumentException("applier.phoenix.mode: 'rows' or 'change-log', not '" + mode + "'");
    }
    if (saltBuckets != null && (saltBuckets < 1 || saltBuckets > 256)) {
      throw new IllegalArgumentException("applier.phoenix.saltBuckets: 1..256, not " + saltBuckets);
    }
    if (columnFamily != null && !columnFamily.matches("[A-Za-z0-9_]{1,32}")) {
      throw new IllegalArgumentException("applier.phoenix.columnFamily: 1-32 letters, digits or '_', not '" + columnFamily + "'");
    }
    if (changeLogTable != null && !changeLogTable.matches("[A-Za-z0-9_]{1,64}")) {
      throw new IllegalArgumentException("applier.phoenix.changeLogTable: 1-64 letters, digits or '_', not '"
          + changeLogTable + "'");
    }
    if (policy != null && "change-log".equals(mode)) {
      // the log names each change's source table; routes and layouts are about the tables of rows mode
      throw new IllegalArgumentException("applier.phoenix.policy: only for mode rows (change-log mode writes one table, "
          + "laid out by saltBuckets and columnFamily)");
    }
  }

  public PhoenixTargetConfig(String url, String mode, Integer saltBuckets, String columnFamily, String changeLogTable) {
    this(url, mode, saltBuckets, columnFamily, changeLogTable, null);
  }

  /** Rows mode with defaults. */
  public static PhoenixTargetConfig rows(String url) {
    return new PhoenixTargetConfig(url, null, null, null, null);
  }

  /** Change-log mode with defaults. */
  public static PhoenixTargetConfig changeLog(String url) {
    return new PhoenixTargetConfig(url, "change-log", null, null, null);
  }

  Mode parsedMode() {
    return mode == null ? Mode.ROWS : Mode.valueOf(mode.toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  String changeLogTableName() {
    return changeLogTable == null ? "gridway_change_log" : changeLogTable;
  }
}
