package io.gridway.policy.bench;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-event cost of a fetch policy, through the public API the relay calls ({@code
 * FetchPolicy.apply(ChangeEvent)}), on ~1,100-byte rows of ten mixed columns. Each benchmark's
 * policy holds only the rule kind it measures, so the figure is that rule plus the schema-id lookup
 * every event pays. Targets (issue 7): table match ≤ 20 ns, key-hash partition ≤ 50 ns, row
 * predicate ≤ 250 ns, column transforms ≤ 500 ns.
 *
 * <p>{@link #jdkHmacOfOneValue} is the same-run limit of the column transforms: one HMAC-SHA-256 of
 * the hashed value through the JDK's own {@code javax.crypto.Mac}, hex-encoded — no policy can hash a
 * column for less. Report {@code maskHashRename} as a ratio to it, and read the CPU time per operation
 * ({@link CpuTimeProfiler}) rather than the wall-clock score when the machine is shared.
 *
 * <p>Run (from the repository root, through the reactor): see the README's Performance section.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FetchPolicyBenchmark {
  private static final TableSchema ORDERS = TableSchema.of("src", "shop", "orders", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(),
      Column.text("status", ColumnType.VARCHAR, "utf8mb4"),
      Column.of("amount", ColumnType.INT),
      Column.decimal("price", 10, 2),
      Column.text("email", ColumnType.VARCHAR, "utf8mb4"),
      Column.text("phone", ColumnType.VARCHAR, "utf8mb4"),
      Column.of("qty", ColumnType.SMALLINT),
      Column.of("score", ColumnType.DOUBLE),
      Column.temporal("created", ColumnType.DATETIME, 0),
      Column.text("note", ColumnType.TEXT, "utf8mb4")), List.of("id"));
  private static final TableSchema TMP = TableSchema.of("src", "shop", "tmp_orders", ORDERS.columns(), List.of("id"));

  private Policy tables;
  private Policy predicate;
  private Policy partition;
  private Policy transforms;
  private Policy transformsWithoutHash;
  private ChangeEvent included;
  private ChangeEvent excluded;
  private Mac jdkMac;
  private String hashedValue;

  @Setup
  public void setUp() throws PolicyException, GeneralSecurityException {
    PolicyLoader loader = PolicyLoader.create().withSchemas(List.of(ORDERS, TMP))
        .withEnvironment(Map.of("BENCH_KEY", "bench-hash-key-0123456789")::get);
    tables = loader.parse("tables.yaml", "name: t\nversion: 1\ninclude: ['shop.*', 'billing.invoice_*']\nexclude: ['shop.tmp_*', '*.audit']\n");
    predicate = loader.parse("where.yaml", "name: w\nversion: 1\nrules:\n  - name: big-paid\n    tables: [shop.orders]\n"
        + "    where: after.amount > 100 && after.status == 'PAID'\n");
    partition = loader.parse("partition.yaml", "name: p\nversion: 1\nrules:\n  - name: spread\n    tables: ['shop.*']\n    partition: {key-hash: 64}\n");
    transforms = loader.parse("columns.yaml", "name: c\nversion: 1\nhash-key: {env: BENCH_KEY}\nrules:\n  - name: pii\n    tables: [shop.orders]\n"
        + "    columns: {mask: {phone: '***'}, hash: [email], rename: {email: email_hash}}\n");
    transformsWithoutHash = loader.parse("columns-no-hash.yaml", "name: c\nversion: 1\nrules:\n  - name: pii\n"
        + "    tables: [shop.orders]\n    columns: {mask: {phone: '***'}, rename: {email: email_hash}}\n");
    String note = "x".repeat(950);
    Row row = Row.of(ORDERS, 123456789L, "PAID", 250L, new BigDecimal("1999.99"), "someone.with.a.long.name@example.com",
        "+49 30 123456789", 7L, 0.875, LocalDateTime.of(2024, 5, 1, 12, 30, 15), note);
    included = ChangeEvent.insert(ORDERS, row, Scn.ofBinlog(1, 4), 1_700_000_000_000_000L, 0);
    excluded = ChangeEvent.insert(TMP, Row.of(TMP, row.toArray()), Scn.ofBinlog(1, 4), 1_700_000_000_000_000L, 0);
    hashedValue = (String) row.get(ORDERS.indexOf("email"));
    jdkMac = Mac.getInstance("HmacSHA256");
    jdkMac.init(new SecretKeySpec("bench-hash-key-0123456789".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    for (Policy p : List.of(tables, predicate, partition, transforms, transformsWithoutHash)) {
      p.fetch().apply(included);
      p.fetch().apply(excluded);
    }
  }

  /** Include/exclude decision for a selected table: the event comes back unchanged. */
  @Benchmark
  public ChangeEvent tableMatchIncluded() {
    return tables.fetch().apply(included);
  }

  /** Include/exclude decision for an excluded table: dropped. */
  @Benchmark
  public ChangeEvent tableMatchExcluded() {
    return tables.fetch().apply(excluded);
  }

  /** A two-clause row predicate that holds. */
  @Benchmark
  public ChangeEvent rowPredicate() {
    return predicate.fetch().apply(included);
  }

  /** xxHash64 of the key, mod 64, and the re-partitioned event. */
  @Benchmark
  public ChangeEvent keyHashPartition() {
    return partition.fetch().apply(included);
  }

  /** Mask one column, HMAC-SHA-256 another, rename it: a new row of the derived schema. */
  @Benchmark
  public ChangeEvent maskHashRename() {
    return transforms.fetch().apply(included);
  }

  /** The same without the HMAC: what the transform machinery itself costs (derived row and event). */
  @Benchmark
  public ChangeEvent maskRename() {
    return transformsWithoutHash.fetch().apply(included);
  }

  /** The limit of {@link #maskHashRename}: the JDK's HMAC-SHA-256 of the hashed value, as hex. */
  @Benchmark
  public String jdkHmacOfOneValue() {
    return HexFormat.of().formatHex(jdkMac.doFinal(hashedValue.getBytes(StandardCharsets.UTF_8)));
  }
}
