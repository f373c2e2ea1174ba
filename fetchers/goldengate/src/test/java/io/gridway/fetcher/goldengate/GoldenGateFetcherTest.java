package io.gridway.fetcher.goldengate;

import static io.gridway.fetcher.goldengate.Fixture.ITEMS;
import static io.gridway.fetcher.goldengate.Fixture.ORDERS;
import static io.gridway.fetcher.goldengate.Fixture.order;
import static io.gridway.fetcher.goldengate.Fixture.txn;
import static io.gridway.fetcher.goldengate.GoldenGateFiles.delete;
import static io.gridway.fetcher.goldengate.GoldenGateFiles.insert;
import static io.gridway.fetcher.goldengate.GoldenGateFiles.row;
import static io.gridway.fetcher.goldengate.GoldenGateFiles.truncate;
import static io.gridway.fetcher.goldengate.GoldenGateFiles.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.config.ByteSize;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherStatus;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Golden files in (written by {@link GoldenGateFiles} from the documented shapes), expected transactions out, for
 * both formats.
 */
class GoldenGateFetcherTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final long MARCH_1 = 1_709_287_200_000_000L; // 2024-03-01T10:00:00Z in microseconds

  @TempDir
  Path root;

  /** The line break after an XML element is not part of the record (whether it was written yet must not matter). */
  private static int trailing(GoldenGateConfig.Format format) {
    return format == GoldenGateConfig.Format.XML ? 1 : 0;
  }

  private static List<Object> values(io.gridway.core.event.Row row) {
    return row == null ? null : new ArrayList<>(row);
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void insertUpdateDeleteTruncateBecomeTheirCoreOperations(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      f.append(1,
          txn(100, "1.1.1", order(1, "ann", "10.50")),
          txn(101, "1.1.2", update(ORDERS, row("ID", "1", "CUSTOMER", "ann", "AMOUNT", "10.50"),
              row("ID", "1", "CUSTOMER", "bob", "AMOUNT", "11"))),
          txn(102, "1.1.3", delete(ORDERS, row("ID", "1", "CUSTOMER", "bob", "AMOUNT", "11.00"))),
          txn(103, "1.1.4", truncate(ORDERS)),
          txn(104, "1.1.5", order(2, "cy", "1")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);

      // the window of CSN 104 waits for a record with another CSN: four windows are complete
      await().atMost(WAIT).until(() -> sink.size() == 4);
      List<Transaction> txs = sink.transactions();
      assertThat(txs).extracting(Transaction::scn).containsExactly(new Scn(100), new Scn(101), new Scn(102), new Scn(103));
      assertThat(txs).extracting(Transaction::gtid).containsExactly("1.1.1", "1.1.2", "1.1.3", "1.1.4");
      assertThat(txs).allSatisfy(t -> assertThat(t.commitTimeMicros()).isEqualTo(MARCH_1));

      ChangeEvent insert = txs.get(0).events().get(0);
      assertThat(insert.op()).isEqualTo(Operation.INSERT);
      assertThat(insert.schema().database()).isEqualTo("SHOP");
      assertThat(insert.schema().table()).isEqualTo("ORDERS");
      assertThat(insert.schema().primaryKey()).containsExactly("ID");
      assertThat(values(insert.after())).containsExactly(1L, "ann", new BigDecimal("10.50"));
      assertThat(insert.before()).isNull();

      ChangeEvent update = txs.get(1).events().get(0);
      assertThat(update.op()).isEqualTo(Operation.UPDATE);
      assertThat(values(update.before())).containsExactly(1L, "ann", new BigDecimal("10.50"));
      assertThat(values(update.after())).containsExactly(1L, "bob", new BigDecimal("11.00"));

      ChangeEvent delete = txs.get(2).events().get(0);
      assertThat(delete.op()).isEqualTo(Operation.DELETE);
      assertThat(values(delete.before())).containsExactly(1L, "bob", new BigDecimal("11.00"));
      assertThat(delete.after()).isNull();

      ChangeEvent truncate = txs.get(3).events().get(0);
      assertThat(truncate.op()).isEqualTo(Operation.TRUNCATE);
      assertThat(truncate.before()).isNull();
      assertThat(truncate.after()).isNull();

      // the next record ends the window of CSN 104
      f.append(1, txn(105, "1.1.6", order(3, "di", "2")));
      await().atMost(WAIT).until(() -> sink.size() == 5);
      assertThat(sink.transactions().get(4).scn()).isEqualTo(new Scn(104));
      assertThat(sink.failure()).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void aMultiOperationTransactionIsOneWindowInOrder(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      f.append(1,
          txn(200, "2.0.1",
              order(7, "eve", "70"),
              insert(ITEMS, row("ORDER_ID", "7", "LINE", "1", "SKU", "A-1     ")),
              insert(ITEMS, row("ORDER_ID", "7", "LINE", "2", "SKU", "B-2     ")),
              update(ORDERS, row("ID", "7", "CUSTOMER", "eve", "AMOUNT", "70"), row("ID", "7", "CUSTOMER", "eve", "AMOUNT", "75.25"))),
          txn(201, "2.0.2", order(8, "fay", "1")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 1);
      Transaction t = sink.transactions().get(0);
      assertThat(t.scn()).isEqualTo(new Scn(200));
      assertThat(t.events()).extracting(e -> e.table() + " " + e.op())
          .containsExactly("ORDERS INSERT", "ITEMS INSERT", "ITEMS INSERT", "ORDERS UPDATE");
      assertThat(values(t.events().get(2).after())).containsExactly(7L, 2L, "B-2     ");
      assertThat(values(t.events().get(3).after())).containsExactly(7L, "eve", new BigDecimal("75.25"));
      // the position is just past the window's last record: the start of CSN 201's
      SourcePosition.Trail p = (SourcePosition.Trail) t.position();
      assertThat(p.sequence()).isEqualTo(1);
      String text = f.render(txn(200, "2.0.1",
          order(7, "eve", "70"),
          insert(ITEMS, row("ORDER_ID", "7", "LINE", "1", "SKU", "A-1     ")),
          insert(ITEMS, row("ORDER_ID", "7", "LINE", "2", "SKU", "B-2     ")),
          update(ORDERS, row("ID", "7", "CUSTOMER", "eve", "AMOUNT", "70"), row("ID", "7", "CUSTOMER", "eve", "AMOUNT", "75.25"))));
      // an XML record ends with its closing tag; a JSON record with its line break
      assertThat(p.rba()).isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length - trailing(format));
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void equalCsnsAcrossTwoFilesMergeIntoOneWindow(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      f.append(1, txn(300, "3.0.1", order(1, "a", "1")), txn(301, "3.0.2", order(2, "b", "2")));
      f.append(2, txn(301, "3.0.3", order(3, "c", "3")), txn(302, "3.0.4", order(4, "d", "4")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 2);
      Transaction merged = sink.transactions().get(1);
      assertThat(merged.scn()).isEqualTo(new Scn(301));
      assertThat(merged.gtid()).isEqualTo("3.0.2,3.0.3");
      assertThat(merged.events()).extracting(e -> e.after().get(0)).containsExactly(2L, 3L);
      assertThat(((SourcePosition.Trail) merged.position()).sequence()).isEqualTo(2);
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void rollsOverWhenTheNextFileAppearsAndWaitsUntilThen(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      f.append(1, txn(1, "x1", order(1, "a", "1")), txn(2, "x2", order(2, "b", "2")));
      RecordingSink sink = new RecordingSink();
      GoldenGateFetcher fetcher = f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 1);
      int sleepsBefore = f.sleeps.get();
      await().atMost(WAIT).until(() -> f.sleeps.get() >= sleepsBefore + 3); // polled the missing next file, still running
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
      assertThat(sink.size()).isEqualTo(1);

      f.append(2, txn(3, "x3", order(3, "c", "3")), txn(4, "x4", order(4, "d", "4")));
      await().atMost(WAIT).until(() -> sink.size() == 3);
      assertThat(sink.transactions()).extracting(Transaction::scn).containsExactly(new Scn(1), new Scn(2), new Scn(3));
      assertThat(((SourcePosition.Trail) sink.transactions().get(1).position()).sequence()).isEqualTo(1);
      assertThat(((SourcePosition.Trail) sink.transactions().get(2).position()).sequence()).isEqualTo(2);
      assertThat(fetcher.status().position()).isEqualTo(sink.transactions().get(2).position());
    }
  }

  /** Without CSN tokens each transaction is its own window, delivered at its end: the partial one must wait. */
  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void aTruncatedLastRecordIsWaitedForAndReadWhenComplete(GoldenGateConfig.Format format) throws Exception {
    try (Fixture f = new Fixture(root, format, true)) {
      String first = f.render(txn(-1, "9.0.1", order(1, "a", "1")));
      String second = f.render(txn(-1, "9.0.2", order(2, "b", "2"), order(3, "c", "3")));
      int cut = second.length() / 2;
      GoldenGateFiles.append(f.file(1), first + second.substring(0, cut));
      RecordingSink sink = new RecordingSink();
      GoldenGateFetcher fetcher = f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 1);
      int sleepsBefore = f.sleeps.get();
      await().atMost(WAIT).until(() -> f.sleeps.get() >= sleepsBefore + 3); // looked at the partial record again and again
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
      assertThat(sink.failure()).isNull();
      assertThat(sink.size()).isEqualTo(1);

      GoldenGateFiles.append(f.file(1), second.substring(cut));
      await().atMost(WAIT).until(() -> sink.size() == 2);
      Transaction t = sink.transactions().get(1);
      assertThat(t.events()).extracting(e -> e.after().get(0)).containsExactly(2L, 3L);
      long end = Files.size(f.file(1)) - trailing(format);
      assertThat(t.scn()).isEqualTo(Scn.ofTrail(1, end)); // no CSN: file sequence and end offset
      assertThat(t.position()).isEqualTo(new SourcePosition.Trail(1, end));
      assertThat(sink.transactions().get(0).scn()).isEqualTo(Scn.ofTrail(1, first.length() - trailing(format)));
    }
  }

  @Test
  void jsonWithoutCsnOrTransactionIndicatorGroupsByXid() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON, false)) {
      f.append(1, txn(-1, "7.7.1", order(1, "a", "1"), order(2, "b", "2")), txn(-1, "7.7.2", order(3, "c", "3")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 1);
      assertThat(sink.transactions().get(0).events()).hasSize(2);
      assertThat(sink.transactions().get(0).gtid()).isEqualTo("7.7.1");
    }
  }

  @Test
  void eachWindowComesWithTheHeapItHoldsAtLeastItsRecordsBytes() throws Exception {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      f.append(1, txn(1, "a", order(1, "a", "1"), order(2, "b", "2")));
      long firstWindowBytes = Files.size(f.file(1));
      f.append(1, txn(2, "b", order(3, "c", "3")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 1);
      // the records' bytes (text values point into them), plus 128 bytes per event and 16 per value
      long values = 0;
      for (ChangeEvent event : sink.transactions().get(0).events()) {
        values += (event.before() == null ? 0 : event.before().size()) + (event.after() == null ? 0 : event.after().size());
      }
      assertThat(values).isPositive();
      assertThat(sink.heldBytes()).containsExactly(firstWindowBytes + 2 * 128 + values * 16);
    }
  }

  @Test
  void aMalformedJsonRecordStopsTheFetcherNamingFileOffsetAndLine() throws Exception {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      f.append(1, txn(1, "a", order(1, "a", "1")), txn(2, "b", order(2, "b", "2")));
      long offset = Files.size(f.file(1));
      GoldenGateFiles.append(f.file(1), "{\"table\":\"SHOP.ORDERS\",\"op_type\":\"I\",\"after\":{\"ID\":3,}\n");
      RecordingSink sink = new RecordingSink();
      GoldenGateFetcher fetcher = f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage())
          .contains(f.file(1).toString())
          .contains("at offset " + offset)
          .contains("(line 3)")
          .contains("not a JSON object");
      assertThat(sink.transactions()).extracting(Transaction::scn).containsExactly(new Scn(1)); // CSN 2 never completed
      await().atMost(WAIT).until(() -> fetcher.status().state() == FetcherStatus.State.FAILED);
    }
  }

  @Test
  void aMalformedXmlRecordStopsTheFetcherNamingFileOffsetAndLine() throws Exception {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.XML)) {
      f.append(1, txn(1, "a", order(1, "a", "1")));
      long offset = Files.size(f.file(1));
      long line = Files.readAllLines(f.file(1)).size() + 1;
      GoldenGateFiles.append(f.file(1), "<transaction><dbupdate table=\"SHOP.ORDERS\" type=\"upsert\"></dbupdate></transaction>\n");
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage())
          .contains(f.file(1).toString())
          .contains("at offset " + offset)
          .contains("(line " + line + ")")
          .contains("type 'upsert' is not one of insert, update, delete, truncate");
    }
  }

  @Test
  void aValueItsColumnCannotTakeIsAnErrorNamingTheColumn() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.XML)) {
      f.append(1, txn(1, "a", order(1, "a", "1.234")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage()).contains("SHOP.ORDERS.AMOUNT").contains("1.234 has more than the column's 2 decimal places");
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void aCsnRegressionFailsByDefaultAndIsSkippedWhenConfigured(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      f.append(1, txn(10, "a", order(1, "a", "1")), txn(12, "b", order(2, "b", "2")), txn(11, "c", order(3, "c", "3")),
          txn(13, "d", order(4, "d", "4")), txn(14, "e", order(5, "e", "5")));
      RecordingSink failing = new RecordingSink();
      f.start(null, failing);
      await().atMost(WAIT).until(() -> failing.failure() != null);
      assertThat(failing.failure().getMessage()).contains("CSN 11 follows CSN 12").contains("csnRegression: skip");

      RecordingSink skipping = new RecordingSink();
      f.start(f.config().withCsnRegression("skip"), null, skipping);
      await().atMost(WAIT).until(() -> skipping.size() == 3);
      assertThat(skipping.transactions()).extracting(Transaction::scn).containsExactly(new Scn(10), new Scn(12), new Scn(13));
      assertThat(skipping.transactions()).flatExtracting(Transaction::events).extracting(e -> e.after().get(0))
          .containsExactly(1L, 2L, 4L); // order 3 (CSN 11) was dropped; CSN 14 waits for a successor
      assertThat(skipping.failure()).isNull();

      // the window of CSN 12 ends after the dropped record: a restart there does not deliver CSN 11 after 12
      RecordingSink restarted = new RecordingSink();
      f.start(f.config().withCsnRegression("skip"), skipping.transactions().get(1).position(), restarted);
      await().atMost(WAIT).until(() -> restarted.size() == 1);
      assertThat(restarted.transactions().get(0).scn()).isEqualTo(new Scn(13));
    }
  }

  @Test
  void aWindowAboveMaxTransactionBytesIsAnError() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      List<GoldenGateFiles.Op> ops = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        ops.add(order(i, "customer-" + i, "1"));
      }
      f.append(1, new GoldenGateFiles.Txn(1, "big", "2024-03-01 10:00:00", ops), txn(2, "next", order(99, "z", "1")));
      RecordingSink sink = new RecordingSink();
      f.start(f.config().withLimits(Duration.ofMillis(20), ByteSize.parse("4KiB")), null, sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage()).contains("exceeds maxTransactionBytes (4096 bytes)").contains("CSN 1");
      assertThat(sink.transactions()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void resumesExactlyAfterThePersistedPositionAfterCloseAndAfterAKill(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      for (int i = 1; i <= 10; i++) {
        f.append(i <= 5 ? 1 : 2, txn(1000 + i, "r" + i, order(i, "c" + i, i + ".5")));
      }
      RecordingSink all = new RecordingSink();
      f.start(null, all);
      await().atMost(WAIT).until(() -> all.size() == 9); // CSN 1010 waits for a successor
      List<Transaction> reference = all.transactions();

      // after close: resume from the last delivered position
      RecordingSink firstRun = new RecordingSink();
      GoldenGateFetcher first = f.start(null, firstRun);
      await().atMost(WAIT).until(() -> firstRun.size() == 9);
      first.close();
      SourcePosition persisted = firstRun.transactions().get(3).position(); // say the relay had stored the 4th
      RecordingSink resumed = new RecordingSink();
      f.start(persisted, resumed);
      await().atMost(WAIT).until(() -> resumed.size() == 5);
      assertThat(resumed.transactions()).isEqualTo(reference.subList(4, 9));

      // after a kill: the old fetcher is dropped without close, its last stored position is used
      RecordingSink killed = new RecordingSink();
      f.start(null, killed);
      await().atMost(WAIT).until(() -> killed.size() >= 6);
      SourcePosition stored = killed.transactions().get(5).position(); // crosses into file 2
      RecordingSink afterKill = new RecordingSink();
      f.start(stored, afterKill);
      await().atMost(WAIT).until(() -> afterKill.size() == 3);
      assertThat(afterKill.transactions()).isEqualTo(reference.subList(6, 9));

      f.append(2, txn(1011, "r11", order(11, "c11", "1")));
      await().atMost(WAIT).until(() -> afterKill.size() == 4);
      assertThat(afterKill.transactions().get(3).scn()).isEqualTo(new Scn(1010));
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void twoFetchersOverTheSameFilesAssignIdenticalScnsAndPositions(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format, true)) {
      for (int i = 1; i <= 6; i++) {
        f.append(i <= 3 ? 1 : 2, txn(-1, "p" + i, order(i, "c" + i, "1"), insert(ITEMS, row("ORDER_ID", "" + i, "LINE", "1", "SKU", "S"))));
      }
      RecordingSink a = new RecordingSink();
      RecordingSink b = new RecordingSink();
      f.start(null, a);
      f.start(null, b);
      await().atMost(WAIT).until(() -> a.size() == 6 && b.size() == 6);
      assertThat(a.transactions()).isEqualTo(b.transactions());
      assertThat(a.transactions()).extracting(t -> ((SourcePosition.Trail) t.position()).sequence()).containsExactly(1L, 1L, 1L, 2L, 2L, 2L);
      assertThat(a.transactions()).allSatisfy(t -> assertThat(t.scn()).isEqualTo(
          Scn.ofTrail(((SourcePosition.Trail) t.position()).sequence(), ((SourcePosition.Trail) t.position()).rba())));
    }
  }

  @Test
  void aFilePurgedBeforeItWasReadIsAnError() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      f.append(3, txn(1, "a", order(1, "a", "1")));
      RecordingSink sink = new RecordingSink();
      f.start(new SourcePosition.Trail(2, 0), sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage()).contains(f.file(2).toString() + " is missing but ea000000003 exists");
    }
  }

  @Test
  void aTableWithoutASchemaFileIsAnErrorNamingTheFile() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      GoldenGateFiles.Table unknown = new GoldenGateFiles.Table("SHOP.NOPE", ORDERS.columns());
      f.append(1, txn(1, "a", insert(unknown, row("ID", "1", "CUSTOMER", "x", "AMOUNT", "1"))));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage()).contains("SHOP.NOPE.schema.json").contains("line 1");
    }
  }

  @Test
  void closeStopsAWaitingOrReadingFetcherWithoutReportingAFailure() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      RecordingSink idle = new RecordingSink();
      GoldenGateFetcher waiting = f.start(null, idle); // no file yet: waits for the first one
      await().atMost(WAIT).until(() -> waiting.status().detail().startsWith("waiting for a file"));
      waiting.close();
      assertThat(waiting.status().state()).isEqualTo(FetcherStatus.State.STOPPED);

      for (int i = 1; i <= 200; i++) {
        f.append(1, txn(i, "c" + i, order(i, "c", "1")));
      }
      RecordingSink reading = new RecordingSink();
      GoldenGateFetcher fetcher = f.start(null, reading);
      await().atMost(WAIT).until(() -> reading.size() > 0);
      fetcher.close();
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.STOPPED);
      assertThat(idle.failure()).isNull();
      assertThat(reading.failure()).isNull();
      assertThat(fetcher.status().position()).isEqualTo(reading.transactions().get(reading.size() - 1).position());
    }
  }

  /** FORMATXML ENCODING UTF-8 adds a header and a root node; NOTRANS writes dbupdate elements without transactions. */
  @Test
  void xmlWithItsHeaderRootNodeAndNotransIsGroupedByCsn() {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.XML)) {
      GoldenGateFiles.Txn first = txn(50, "n.1", order(1, "a", "1"),
          update(ORDERS, row("ID", "1", "CUSTOMER", "a", "AMOUNT", "1"), row("ID", "1", "CUSTOMER", "b", "AMOUNT", "2")));
      GoldenGateFiles.Txn second = txn(51, "n.2", delete(ORDERS, row("ID", "1")));
      StringBuilder text = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OracleGoldenGateFormatXML>\n");
      for (GoldenGateFiles.Txn t : List.of(first, second)) {
        for (GoldenGateFiles.Op op : t.ops()) {
          text.append(GoldenGateFiles.xmlOp(t, op)); // NOTRANS: no <transaction> around them
        }
      }
      GoldenGateFiles.append(f.file(1), text.toString());
      GoldenGateFiles.append(f.file(2), GoldenGateFiles.xmlOp(txn(52, "n.3", order(9, "z", "9")), order(9, "z", "9"))
          + "</OracleGoldenGateFormatXML>\n");
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.size() == 2);
      Transaction t1 = sink.transactions().get(0);
      assertThat(t1.scn()).isEqualTo(new Scn(50));
      assertThat(t1.events()).extracting(ChangeEvent::op).containsExactly(Operation.INSERT, Operation.UPDATE);
      assertThat(values(t1.events().get(1).before())).containsExactly(1L, "a", new BigDecimal("1.00"));
      assertThat(values(t1.events().get(1).after())).containsExactly(1L, "b", new BigDecimal("2.00"));
      Transaction t2 = sink.transactions().get(1);
      assertThat(t2.scn()).isEqualTo(new Scn(51));
      // a delete's before image with the key only: the other columns are NULL
      assertThat(values(t2.events().get(0).before())).containsExactly(1L, null, null);
      assertThat(sink.failure()).isNull();
    }
  }

  @Test
  void aRolledFileEndingInAnIncompleteRecordIsAnError() throws Exception {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.JSON)) {
      f.append(1, txn(1, "a", order(1, "a", "1")));
      long offset = Files.size(f.file(1));
      GoldenGateFiles.append(f.file(1), "{\"table\":\"SHOP.ORD");
      f.append(2, txn(2, "b", order(2, "b", "2")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.failure() != null);
      assertThat(sink.failure().getMessage()).contains(f.file(1) + " at offset " + offset + " (line 2)")
          .contains("ends in an incomplete record, and the writer has moved on to ea000000002");
    }
  }

  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void anIdleSourceHeartbeatsJustBelowThePendingWindowsCsn(GoldenGateConfig.Format format) {
    try (Fixture f = new Fixture(root, format)) {
      f.append(1, txn(100, "h1", order(1, "a", "1")), txn(105, "h2", order(2, "b", "2")));
      RecordingSink sink = new RecordingSink();
      f.start(null, sink);
      await().atMost(WAIT).until(() -> sink.heartbeats().size() == 2); // the start (CSN 100 - 1), then the idle one
      assertThat(sink.transactions()).extracting(Transaction::scn).containsExactly(new Scn(100));
      assertThat(sink.heartbeats().get(0).scn()).isEqualTo(new Scn(99));
      io.gridway.core.event.Heartbeat hb = sink.heartbeats().get(1);
      assertThat(hb.scn()).isEqualTo(new Scn(104)); // CSN 105's window is pending: nothing below 105 is still to come
      assertThat(hb.position()).isEqualTo(sink.transactions().get(0).position());

      f.append(1, txn(106, "h3", order(3, "c", "3")));
      await().atMost(WAIT).until(() -> sink.size() == 2);
      assertThat(sink.transactions().get(1).scn()).isEqualTo(new Scn(105));
      int sleeps = f.sleeps.get();
      await().atMost(WAIT).until(() -> f.sleeps.get() >= sleeps + 3); // idle again, past the point of heartbeating
      assertThat(sink.heartbeats()).hasSize(2); // 106 - 1 = 105 is no progress: no third heartbeat
    }
  }
  @ParameterizedTest
  @EnumSource(GoldenGateConfig.Format.class)
  void aFreshStartOnAnEmptyFileSaysWhereItStartsOnlyOnceARecordTellsTheScnRule(GoldenGateConfig.Format format)
      throws Exception {
    try (Fixture f = new Fixture(root, format)) {
      Files.createFile(f.file(7)); // the relay starts at the end: GoldenGate has just opened a new trail file
      RecordingSink sink = new RecordingSink();
      f.start(null, sink); // the lowest (only) file present
      int sleeps = f.sleeps.get();
      await().atMost(WAIT).until(() -> f.sleeps.get() >= sleeps + 3); // idle on the empty file
      // whether the SCNs will be CSNs or packed positions is not known yet: a heartbeat at Scn.ofTrail(7, 0) would
      // be far above CSNs such as 100, and the relay would drop every window below it as already processed
      assertThat(sink.heartbeats()).isEmpty();

      f.append(7, txn(100, "s1", order(1, "a", "1")), txn(105, "s2", order(2, "b", "2")));
      await().atMost(WAIT).until(() -> sink.size() == 1);
      assertThat(sink.transactions().get(0).scn()).isEqualTo(new Scn(100));
      // the start, announced before the first window: just below the first CSN, at the position reading began
      assertThat(sink.heartbeats()).first().satisfies(hb -> {
        assertThat(hb.scn()).isEqualTo(new Scn(99));
        assertThat(hb.position()).isEqualTo(new SourcePosition.Trail(7, 0));
      });
      // then only the idle heartbeat below the pending CSN 105
      await().atMost(WAIT).until(() -> sink.heartbeats().size() == 2);
      assertThat(sink.heartbeats()).extracting(io.gridway.core.event.Heartbeat::scn).containsExactly(new Scn(99), new Scn(104));
    }
  }

  @Test
  void withoutCsnsTheStartIsAnnouncedAtItsPackedPosition() throws Exception {
    try (Fixture f = new Fixture(root, GoldenGateConfig.Format.XML)) {
      f.append(3, txn(-1, "p1", order(1, "a", "1")));
      long firstEnd = Files.size(f.file(3));
      f.append(3, txn(-1, "p2", order(2, "b", "2")));
      RecordingSink sink = new RecordingSink();
      f.start(new SourcePosition.Trail(3, firstEnd), sink); // resumed after p1
      await().atMost(WAIT).until(() -> sink.size() == 1);
      assertThat(sink.heartbeats()).first().isEqualTo(new io.gridway.core.event.Heartbeat(Scn.ofTrail(3, firstEnd),
          sink.heartbeats().get(0).timeMicros(), new SourcePosition.Trail(3, firstEnd)));
      assertThat(sink.transactions().get(0).scn()).isEqualTo(Scn.ofTrail(3, Files.size(f.file(3)) - trailing(GoldenGateConfig.Format.XML)));
    }
  }
}
