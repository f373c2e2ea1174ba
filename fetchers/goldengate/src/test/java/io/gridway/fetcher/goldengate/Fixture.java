package io.gridway.fetcher.goldengate;

import static io.gridway.fetcher.goldengate.GoldenGateFiles.Col;
import static io.gridway.fetcher.goldengate.GoldenGateFiles.Table;

import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A directory of generated files in one format, and the fetchers reading it; closes them all. */
final class Fixture implements AutoCloseable {
  static final String PREFIX = "ea";

  static final Table ORDERS = new Table("SHOP.ORDERS", List.of(
      new Col("ID", "NUMBER(10)", true),
      new Col("CUSTOMER", "VARCHAR2(40)", false),
      new Col("AMOUNT", "NUMBER(12,2)", false)));
  static final Table ITEMS = new Table("SHOP.ITEMS", List.of(
      new Col("ORDER_ID", "NUMBER(10)", true),
      new Col("LINE", "NUMBER(4)", true),
      new Col("SKU", "CHAR(8)", false)));

  final Path directory;
  final Path schemas;
  final GoldenGateConfig.Format format;
  final boolean txind;
  final AtomicInteger sleeps = new AtomicInteger();
  private final List<GoldenGateFetcher> fetchers = new ArrayList<>();

  Fixture(Path root, GoldenGateConfig.Format format, boolean txind) {
    this.directory = root.resolve("dirdat");
    this.schemas = root.resolve("dirdef");
    this.format = format;
    this.txind = txind;
    try {
      Files.createDirectories(directory);
      Files.createDirectories(schemas);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    GoldenGateFiles.writeSchema(schemas, ORDERS);
    GoldenGateFiles.writeSchema(schemas, ITEMS);
  }

  Fixture(Path root, GoldenGateConfig.Format format) {
    this(root, format, false);
  }

  GoldenGateConfig config() {
    return GoldenGateConfig.of(directory, PREFIX, format == GoldenGateConfig.Format.XML ? "xml" : "json", schemas)
        .withLimits(Duration.ofMillis(20), null);
  }

  Path file(long sequence) {
    return GoldenGateFiles.file(directory, PREFIX, sequence);
  }

  String render(GoldenGateFiles.Txn txn) {
    return format == GoldenGateConfig.Format.XML
        ? GoldenGateFiles.xml(txn) : GoldenGateFiles.json(txn, txind);
  }

  /** Appends the transactions to file {@code sequence}. */
  void append(long sequence, GoldenGateFiles.Txn... txns) {
    StringBuilder s = new StringBuilder();
    for (GoldenGateFiles.Txn t : txns) {
      s.append(render(t));
    }
    GoldenGateFiles.append(file(sequence), s.toString());
  }

  GoldenGateFetcher start(GoldenGateConfig config, SourcePosition resume, RecordingSink sink) {
    GoldenGateFetcher fetcher = new GoldenGateFetcher(config, "gg", Clock.systemUTC(), d -> {
      sleeps.incrementAndGet();
      Sleeper.SYSTEM.sleep(d);
    });
    fetchers.add(fetcher);
    fetcher.start(resume, sink);
    return fetcher;
  }

  GoldenGateFetcher start(SourcePosition resume, RecordingSink sink) {
    return start(config(), resume, sink);
  }

  static GoldenGateFiles.Txn txn(long csn, String xid, GoldenGateFiles.Op... ops) {
    return new GoldenGateFiles.Txn(csn, xid, "2024-03-01 10:00:00.000000", List.of(ops));
  }

  static GoldenGateFiles.Op order(long id, String customer, String amount) {
    return GoldenGateFiles.insert(ORDERS, GoldenGateFiles.row("ID", Long.toString(id), "CUSTOMER", customer, "AMOUNT", amount));
  }

  @Override
  public void close() {
    for (GoldenGateFetcher f : fetchers) {
      f.close();
    }
  }
}
