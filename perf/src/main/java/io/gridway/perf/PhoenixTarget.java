package io.gridway.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Phoenix as the target of an end-to-end run: the consumers load the Phoenix applier from the unpacked add-on
 * ({@code -Dgridway.addons=}, as {@code gridway consumer} does), apply to the benchmark's mini cluster in rows mode
 * (guarded upserts, README of appliers/phoenix) with K micro-batch lanes, and keep their checkpoints in Phoenix.
 * {@link #reset()} drops the load's tables and the checkpoints, so each run creates and fills them from nothing; the
 * run is valid only when every view holds its table's share. Single-threaded.
 */
final class PhoenixTarget implements E2eTarget {
  private final PhoenixSide side;
  private final String schema; // the source database's name: the applier's identity mapping
  private final Workload workload;
  private final int lanes;

  PhoenixTarget(PhoenixSide side, String schema, Workload workload, int lanes) {
    this.side = side;
    this.schema = schema;
    this.workload = workload;
    this.lanes = lanes;
  }

  @Override
  public String kind() {
    return "phoenix";
  }

  @Override
  public String label() {
    return "phoenix-k" + lanes;
  }

  @Override
  public String describe() {
    return "Phoenix applier (add-on, guarded upserts), K = " + lanes + (lanes == 1 ? " lane" : " lanes");
  }

  /**
   * Empties the applier's tables and drops its checkpoints, but keeps the tables: creating an HBase table takes
   * 5-25 s here, which would swamp the rows of a short run. So the first reset creates them untimed, with the layout
   * the applier's README documents (its own {@code CREATE … IF NOT EXISTS} then finds them).
   */
  @Override
  public void reset() throws Exception {
    for (int t = 0; t < workload.tables(); t++) {
      String base = "\"" + schema + "\".\"" + Workload.tableName(t) + "_gw\"";
      side.sql("CREATE TABLE IF NOT EXISTS " + base + " (\"id\" BIGINT NOT NULL, \"n1\" INTEGER, \"n2\" BIGINT,"
          + " \"n3\" DOUBLE, \"amount\" DECIMAL(12,2), \"sent_us\" BIGINT, \"s1\" VARCHAR, \"s2\" VARCHAR, \"s3\" VARCHAR,"
          + " \"body\" VARCHAR, \"GW_GUARD\" DECIMAL(38,0), \"GW_DELETED\" BOOLEAN, CONSTRAINT \"pk\" PRIMARY KEY (\"id\"))"
          + " COLUMN_ENCODED_BYTES=0");
      side.sql("CREATE VIEW IF NOT EXISTS \"" + schema + "\".\"" + Workload.tableName(t) + "\" AS SELECT * FROM " + base
          + " WHERE \"GW_DELETED\" = FALSE");
      side.sql("DELETE FROM " + base);
    }
    // the consumers' checkpoint store creates its table at start-up (untimed, before they report STARTED)
    side.emptyIfExists("gridway_phoenix_checkpoint");
  }

  @Override
  public String missingRows() throws Exception {
    for (int t = 0; t < workload.tables(); t++) {
      long rows = side.count(schema, Workload.tableName(t));
      if (rows != workload.recordsOf(t)) {
        return String.format(Locale.ROOT, "target phoenix view %s.%s holds %,d rows, the load wrote %,d", schema,
            Workload.tableName(t), rows, workload.recordsOf(t));
      }
    }
    return null;
  }

  @Override
  public String applierYaml() {
    return "applier:\n  type: phoenix\n  phoenix: {url: \"" + side.url() + "\"}\n";
  }

  @Override
  public String consumerYaml() {
    return "  microBatch: {count: " + lanes + "}\n";
  }

  @Override
  public List<String> jvmOptions() {
    return new ArrayList<>(side.clientJvmOptions());
  }
}
