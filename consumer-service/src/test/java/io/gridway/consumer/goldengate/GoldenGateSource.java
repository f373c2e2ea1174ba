package io.gridway.consumer.goldengate;

import io.gridway.fetcher.goldengate.GoldenGateFiles;
import io.gridway.fetcher.goldengate.GoldenGateFiles.Col;
import io.gridway.fetcher.goldengate.GoldenGateFiles.Op;
import io.gridway.fetcher.goldengate.GoldenGateFiles.Table;
import io.gridway.fetcher.goldengate.GoldenGateFiles.Txn;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A GoldenGate "source database" that exists only as the files {@link GoldenGateFiles} writes: random transactions
 * (inserts, updates with full before images, primary-key changes, deletes) on two tables of one owner, in either
 * format, rolling to a new file every {@link #ROLL_TRANSACTIONS}. It keeps the rows those files describe, which is
 * what the target must end up equal to. Every transaction has its own CSN and XID; some are written in two appends
 * (the fetcher sees a partial last record). Not thread-safe: one writer thread drives it, readers call
 * {@link #expected()} after it stopped.
 */
final class GoldenGateSource {
  static final String PREFIX = "ea";
  static final int ROLL_TRANSACTIONS = 150;
  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
  private static final String[] NAMES = {"plain", "quote \" and ' ", "amp & <lt> >gt", "accents éèü", "日本語", "tab\tand\nline"};

  final String owner;
  final Table orders;
  final Table items;
  /** GoldenGate's heartbeat table: the last transaction is on it, because the newest CSN window waits for a successor. */
  final Table heartbeat;
  private final Path data;
  private final boolean xml;
  private final Random random;
  private final Map<Long, Map<String, String>> orderRows = new HashMap<>();
  private final Map<List<Long>, Map<String, String>> itemRows = new HashMap<>();
  private long nextOrder = 1;
  private long csn = 7_000_000_000L;
  private long sequence = 1;
  private int inFile;
  private int transactions;
  private int keyChanges;

  GoldenGateSource(String owner, Path directory, boolean xml, long seed) throws IOException {
    this.owner = owner;
    this.data = Files.createDirectories(directory.resolve("dirdat"));
    this.xml = xml;
    this.random = new Random(seed);
    this.orders = new Table(owner + ".ORDERS", List.of(new Col("ID", "NUMBER(18)", true),
        new Col("AMOUNT", "NUMBER(12,2)", false), new Col("NAME", "VARCHAR2(64 CHAR)", false),
        new Col("CREATED", "TIMESTAMP(6)", false), new Col("NOTE", "CLOB", false)));
    this.items = new Table(owner + ".ITEMS", List.of(new Col("ORDER_ID", "NUMBER(18)", true),
        new Col("LINE", "NUMBER(4)", true), new Col("QTY", "NUMBER(9)", false), new Col("SKU", "CHAR(8)", false)));
    this.heartbeat = new Table(owner + ".GG_HEARTBEAT", List.of(new Col("ID", "NUMBER(18)", true),
        new Col("CSN", "NUMBER(18)", false)));
    Path schemas = Files.createDirectories(directory.resolve("dirdef"));
    for (Table t : List.of(orders, items, heartbeat)) {
      GoldenGateFiles.writeSchema(schemas, t);
    }
  }

  Path dataDirectory() {
    return data;
  }

  Path schemaDirectory() {
    return data.resolveSibling("dirdef");
  }

  String format() {
    return xml ? "xml" : "json";
  }

  int transactions() {
    return transactions;
  }

  int keyChanges() {
    return keyChanges;
  }

  /** Writes one random transaction of 1..6 operations; now and then in two appends, with a roll-over every so often. */
  void writeTransaction() {
    List<Op> ops = new ArrayList<>();
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      ops.add(randomOp());
    }
    write(ops);
  }

  /** The closing transaction: one heartbeat-table row, so that every earlier window is complete (README "Windows"). */
  void writeHeartbeat() {
    long c = csn + 1;
    write(List.of(GoldenGateFiles.update(heartbeat, GoldenGateFiles.row("ID", "1", "CSN", Long.toString(c - 1)),
        GoldenGateFiles.row("ID", "1", "CSN", Long.toString(c)))));
  }

  private void write(List<Op> ops) {
    csn += 1 + random.nextInt(3); // CSNs are sparse and increasing
    transactions++;
    Txn txn = new Txn(csn, "3." + (transactions % 32) + "." + transactions,
        TS.format(LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(transactions)), ops);
    String text = xml ? GoldenGateFiles.xml(txn) : GoldenGateFiles.json(txn, false);
    if (inFile == ROLL_TRANSACTIONS) {
      sequence++;
      inFile = 0;
    }
    inFile++;
    Path file = GoldenGateFiles.file(data, PREFIX, sequence);
    if (random.nextInt(8) == 0) {
      int cut = 1 + random.nextInt(text.length() - 1); // a record still being written: the fetcher must wait for it
      GoldenGateFiles.append(file, text.substring(0, cut));
      GoldenGateFiles.append(file, text.substring(cut));
    } else {
      GoldenGateFiles.append(file, text);
    }
  }

  private Op randomOp() {
    int dice = random.nextInt(100);
    if (dice < 35 || orderRows.size() < 5) {
      long id = nextOrder++;
      Map<String, String> row = orderRow(id);
      orderRows.put(id, row);
      return GoldenGateFiles.insert(orders, row);
    }
    if (dice < 55) {
      List<Long> key = List.of(anyOrder(), (long) (1 + random.nextInt(50)));
      Map<String, String> row = GoldenGateFiles.row("ORDER_ID", Long.toString(key.get(0)), "LINE", Long.toString(key.get(1)),
          "QTY", Integer.toString(random.nextInt(1_000_000)), "SKU", "SKU-" + (1000 + random.nextInt(9000)));
      Map<String, String> before = itemRows.put(key, row);
      return before == null ? GoldenGateFiles.insert(items, row) : GoldenGateFiles.update(items, before, row);
    }
    if (dice < 80) {
      long id = anyOrder();
      Map<String, String> before = orderRows.get(id);
      Map<String, String> after = orderRow(id);
      after.put("CREATED", before.get("CREATED"));
      orderRows.put(id, after);
      return GoldenGateFiles.update(orders, before, after);
    }
    if (dice < 85) { // a primary-key change: before and after images with different IDs
      long id = anyOrder();
      long newId = nextOrder++;
      Map<String, String> before = orderRows.remove(id);
      Map<String, String> after = new LinkedHashMap<>(before);
      after.put("ID", Long.toString(newId));
      orderRows.put(newId, after);
      keyChanges++;
      return GoldenGateFiles.update(orders, before, after);
    }
    if (dice < 93 || itemRows.isEmpty()) {
      long id = anyOrder();
      return GoldenGateFiles.delete(orders, orderRows.remove(id));
    }
    List<Long> key = new ArrayList<>(itemRows.keySet()).get(random.nextInt(itemRows.size()));
    return GoldenGateFiles.delete(items, itemRows.remove(key));
  }

  private long anyOrder() {
    // HashMap iteration order is deterministic for the same keys; the seed reproduces the run
    List<Long> ids = new ArrayList<>(orderRows.keySet());
    return ids.get(random.nextInt(ids.size()));
  }

  private Map<String, String> orderRow(long id) {
    BigDecimal amount = BigDecimal.valueOf(random.nextLong(10_000_000_000L) - 5_000_000_000L, 2);
    LocalDateTime created = LocalDateTime.of(2020, 1, 1, 0, 0).plusNanos(random.nextLong(1L << 50) / 1000 * 1000);
    String note = random.nextInt(4) == 0 ? GoldenGateFiles.NULL : "note " + random.nextInt() + " <b>bold</b> & more";
    return GoldenGateFiles.row("ID", Long.toString(id), "AMOUNT", amount.toPlainString(),
        "NAME", NAMES[random.nextInt(NAMES.length)] + " " + id, "CREATED", TS.format(created), "NOTE", note);
  }

  /**
   * The rows the files describe, per table name (unqualified), as canonical text lines sorted by key: the same
   * rendering {@link TargetRows} gives the target's rows.
   */
  Map<String, List<String>> expected() {
    Map<String, List<String>> out = new TreeMap<>();
    TreeMap<Long, String> o = new TreeMap<>();
    orderRows.forEach((id, row) -> o.put(id, TargetRows.line(Long.parseLong(row.get("ID")), new BigDecimal(row.get("AMOUNT")),
        row.get("NAME"), LocalDateTime.parse(row.get("CREATED"), TS), row.get("NOTE") == GoldenGateFiles.NULL ? null : row.get("NOTE"))));
    out.put("ORDERS", List.copyOf(o.values()));
    TreeMap<String, String> i = new TreeMap<>();
    itemRows.forEach((key, row) -> i.put(String.format("%019d/%05d", key.get(0), key.get(1)), TargetRows.line(key.get(0), key.get(1),
        Long.parseLong(row.get("QTY")), row.get("SKU"))));
    out.put("ITEMS", List.copyOf(i.values()));
    return out;
  }
}
