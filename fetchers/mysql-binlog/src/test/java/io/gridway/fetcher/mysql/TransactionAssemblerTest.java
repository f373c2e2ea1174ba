package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.shyiko.mysql.binlog.event.EventType;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionAssemblerTest {
  private static final TableSchema T = TableSchema.of("src", "db", "t",
      List.of(Column.of("id", ColumnType.INT).notNull(), Column.of("v", ColumnType.VARCHAR)), List.of("id"));
  private static final String FILE = "mariadb-bin.000007";

  private final RecordingSink sink = new RecordingSink();
  private final MutableClock clock = new MutableClock(Instant.parse("2024-01-01T00:00:00Z"));
  private final Events binlog = new Events();
  private final TransactionAssembler assembler = new TransactionAssembler(sink,
      new SchemaChanges(new TableRegistry(TableFilter.all(), new SchemaFactory("src"), TableDescriber.NONE),
          new SchemaFactory("src"), TableDescriber.NONE),
      new ResumePoint(FILE, 4, "0-1-10"), new TransactionAssembler.Limits(1000, 1 << 20), clock);

  @Test
  void aGroupBecomesOneTransactionWhoseScnIsTheEndOfItsCommitEvent() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "a"), row(2, "b")),
        binlog.rows(T, Operation.UPDATE, row(1, "a"), row(1, "z")), binlog.xid());
    assertThat(sink.transactions).hasSize(1);
    Transaction t = sink.transactions.get(0);
    assertThat(t.scn()).isEqualTo(Scn.ofBinlog(7, binlog.position()));
    assertThat(t.position()).isEqualTo(new SourcePosition.Binlog(FILE, binlog.position(), "0-1-11"));
    assertThat(t.gtid()).isEqualTo("0-1-11");
    assertThat(t.events()).extracting(e -> e.op()).containsExactly(Operation.INSERT, Operation.INSERT, Operation.UPDATE);
    assertThat(t.events().get(2).before()).isEqualTo(row(1, "a"));
    assertThat(t.events().get(2).after()).isEqualTo(row(1, "z"));
    assertThat(t.commitTimeMicros()).isEqualTo(1_700_000_000_000_000L);
    assertThat(assembler.boundary()).isEqualTo(new ResumePoint(FILE, binlog.position(), "0-1-11"));
    assertThat(assembler.lastDelivered()).isEqualTo(t.position());
  }

  @Test
  void eachTransactionComesWithTheHeapItsEventsHoldCountedAsTheyWereRead() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "a"), row(2, "b")),
        binlog.rows(T, Operation.UPDATE, row(1, "a"), row(1, "z")), binlog.xid(),
        binlog.gtid(12, false), binlog.rows(T, Operation.DELETE, row(2, "b")), binlog.xid());
    // per row event: its 100-byte body, 128 per change event, 16 per value of every image (T has 2 columns)
    assertThat(sink.heldBytes).containsExactly((100 + 2 * 128 + 2 * 2 * 16) + (100 + 128 + 2 * 2 * 16L), 100 + 128 + 2 * 16L);
  }

  @Test
  void rolledBackAndUnfinishedGroupsNeverArrive() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "rolled back")),
        binlog.query("db", "ROLLBACK"));
    ResumePoint afterRollback = assembler.boundary();
    feed(binlog.gtid(12, false), binlog.rows(T, Operation.INSERT, row(2, "cut off by a crash")),
        binlog.gtid(13, false), binlog.rows(T, Operation.INSERT, row(3, "kept")), binlog.xid());
    assertThat(afterRollback.offset()).isGreaterThan(4);
    assertThat(sink.transactions).singleElement().satisfies(t -> {
      assertThat(t.events()).singleElement().satisfies(e -> assertThat(e.after()).isEqualTo(row(3, "kept")));
      assertThat(t.gtid()).isEqualTo("0-1-13");
    });
  }

  @Test
  void savepointsAndRollbacksToThemKeepTheTransactionGoing() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "a")),
        binlog.query("db", "SAVEPOINT `s1`"), binlog.query("db", "ROLLBACK TO `s1`"),
        binlog.rows(T, Operation.INSERT, row(2, "b")), binlog.xid());
    assertThat(sink.transactions).singleElement().satisfies(t -> assertThat(t.events()).hasSize(2));
  }

  @Test
  void aNonTransactionalGroupEndsWithItsCommitStatement() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.DELETE, row(1, "a")), binlog.query("db", "COMMIT"));
    assertThat(sink.transactions).singleElement().satisfies(t -> assertThat(t.scn()).isEqualTo(Scn.ofBinlog(7, binlog.position())));
  }

  @Test
  void heartbeatsCarryTheServersPositionNeverMoveBackAndAreSkippedInsideAGroup() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "a")), binlog.xid());
    Scn committed = sink.transactions.get(0).scn();
    feed(binlog.heartbeat());
    assertThat(sink.heartbeats).singleElement().satisfies(h -> {
      assertThat(h.scn()).isEqualTo(committed);
      assertThat(h.timeMicros()).isEqualTo(1_704_067_200_000_000L);
      assertThat(h.position()).isEqualTo(assembler.boundary().toPosition()); // where a restart may resume
      assertThat(((SourcePosition.Binlog) h.position()).offset()).isGreaterThanOrEqualTo(committed.offset());
    });
    feed(binlog.gtid(12, false), binlog.heartbeat());
    assertThat(sink.heartbeats).hasSize(1);
    feed(binlog.rows(T, Operation.INSERT, row(2, "b")), binlog.xid(), binlog.heartbeat());
    assertThat(sink.heartbeats.get(1).scn()).isEqualTo(sink.transactions.get(1).scn());
  }

  @Test
  void filteredTrafficStillMovesHeartbeatsOnOncePerInterval() throws Exception {
    feed(binlog.rotate(FILE, 4));
    for (int i = 0; i < 5; i++) {
      feed(binlog.gtid(20 + i, false), binlog.skippedRows(), binlog.xid());
    }
    assertThat(sink.transactions).isEmpty();
    assertThat(sink.heartbeats).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    feed(binlog.gtid(30, false), binlog.skippedRows(), binlog.xid());
    feed(binlog.gtid(31, false), binlog.skippedRows(), binlog.xid());
    assertThat(sink.heartbeats).singleElement().satisfies(h -> {
      assertThat(h.scn().offset()).isLessThan(binlog.position());
      // the relay persists it: a restart does not re-read the filtered traffic before it
      assertThat(h.position()).isEqualTo(new SourcePosition.Binlog(FILE, h.scn().offset(), "0-1-30"));
    });
    assertThat(assembler.boundary().offset()).isEqualTo(binlog.position());
    assertThat(assembler.boundary().gtidSet()).isEqualTo("0-1-31");
    assertThat(assembler.lastDelivered()).isNull();
  }

  @Test
  void ddlIsAWindowOfItsOwnAndOtherStatementsPassOver() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, true), binlog.query("db", "CREATE DATABASE other"),
        binlog.gtid(12, true), binlog.query("db", "TRUNCATE TABLE t"));
    assertThat(sink.transactions).isEmpty(); // the fetcher never saw t: its schema waits for a table map or catch-up
    feed(binlog.heartbeat());
    assertThat(sink.transactions).singleElement().satisfies(t -> {
      assertThat(t.events()).singleElement().satisfies(e -> {
        assertThat(e.op()).isEqualTo(Operation.TRUNCATE);
        assertThat(e.table()).isEqualTo("t");
      });
      assertThat(t.gtid()).isEqualTo("0-1-12");
      assertThat(t.scn()).isEqualTo(Scn.ofBinlog(7, binlog.position()));
    });
  }

  @Test
  void aDdlWindowWaitsForTheTablesNextTableMapAndHoldsWhatCommitsAfterIt() throws Exception {
    TableSchema other = TableSchema.of("src", "db", "u", List.of(Column.of("k", ColumnType.INT)), List.of());
    TableSchema altered = TableSchema.of("src", "db", "t",
        List.of(Column.of("id", ColumnType.INT).notNull(), Column.of("v", ColumnType.VARCHAR), Column.of("w", ColumnType.DATE)),
        List.of("id"));
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "a")), binlog.xid());
    ResumePoint beforeDdl = assembler.boundary();
    feed(binlog.gtid(12, true), binlog.query("db", "ALTER TABLE t ADD COLUMN w DATE"));
    feed(binlog.gtid(13, false), binlog.rows(other, Operation.INSERT, Row.of(other, 5L)), binlog.xid());
    assertThat(sink.transactions).hasSize(1);
    assertThat(assembler.boundary()).as("nothing held is behind the boundary").isEqualTo(beforeDdl);
    feed(binlog.heartbeat());
    // a heartbeat means the fetcher caught up: information_schema decides (here there is none, nor a table map of t
    // so far: the placeholder)
    assertThat(sink.transactions).hasSize(3);
    assertThat(sink.transactions.get(1).events().get(0).schema().column(0).name()).isEqualTo(SchemaFactory.UNKNOWN_COLUMN);

    feed(binlog.gtid(14, true), binlog.query("db", "ALTER TABLE t ADD COLUMN w DATE"));
    feed(binlog.gtid(15, false), binlog.rows(other, Operation.INSERT, Row.of(other, 6L)), binlog.xid());
    MappedTable map = new MappedTable(40, new byte[0], "db", "t", new TableShape(altered, new ColumnDecoder[3]));
    feed(binlog.gtid(16, false), binlog.with(EventType.TABLE_MAP, map, 40));
    assertThat(sink.transactions).hasSize(5);
    assertThat(sink.transactions.get(3).events()).singleElement().satisfies(e -> {
      assertThat(e.op()).isEqualTo(Operation.SCHEMA_CHANGE);
      assertThat(e.schema()).isEqualTo(altered);
    });
    assertThat(sink.transactions.get(4).events().get(0).table()).isEqualTo("u");
  }

  @Test
  void aHeldDdlIsResolvedAfterTheHoldLimitEvenWithoutTableMapOrHeartbeat() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, true), binlog.query("db", "CREATE TABLE t (id INT)"));
    feed(binlog.gtid(12, false), binlog.skippedRows(), binlog.xid());
    assertThat(sink.transactions).isEmpty();
    clock.advance(Duration.ofMillis(1001));
    feed(binlog.gtid(13, false), binlog.skippedRows(), binlog.xid());
    assertThat(sink.transactions).singleElement().satisfies(t -> assertThat(t.events().get(0).ddl()).startsWith("CREATE TABLE"));
    assertThat(assembler.boundary().offset()).isEqualTo(binlog.position());
  }

  @Test
  void statementBasedRowsAndOverlargeTransactionsStopTheFetcher() {
    assertThatThrownBy(() -> feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.query("db", "INSERT INTO t VALUES (1)")))
        .isInstanceOf(FetcherException.class).hasMessageContaining("binlog_format is not ROW");
    TransactionAssembler small = new TransactionAssembler(sink, null, new ResumePoint(FILE, 4, ""),
        new TransactionAssembler.Limits(1000, 1024), clock);
    assertThatThrownBy(() -> {
      small.onEvent(binlog.rotate(FILE, 4));
      small.onEvent(binlog.gtid(11, false));
      for (int i = 0; i < 20; i++) {
        small.onEvent(binlog.rows(T, Operation.INSERT, row(i, "x")));
      }
    }).isInstanceOf(FetcherException.class).hasMessageContaining("maxTransactionBytes");
    assertThatThrownBy(() -> small.onEvent(binlog.with(EventType.INCIDENT, null, 20)))
        .isInstanceOf(FetcherException.class).hasMessageContaining("incident");
  }

  @Test
  void undecodableEventsStopTheFetcherInOrder() {
    DecodeFailure failure = new DecodeFailure(new FetcherException("db.t: column #2 has binlog column type 242"), true);
    assertThatThrownBy(() -> feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.with(EventType.TABLE_MAP, failure, 40)))
        .isInstanceOf(FetcherException.class).hasMessageContaining("type 242");
    DecodeFailure transientFailure = new DecodeFailure(new IllegalStateException("information_schema read failed"), false);
    assertThatThrownBy(() -> feed(binlog.with(EventType.TABLE_MAP, transientFailure, 40))).isInstanceOf(TransientFailure.class);
  }

  @Test
  void aNewSessionDropsTheHalfReadGroupAndResumesAtTheBoundary() throws Exception {
    feed(binlog.rotate(FILE, 4), binlog.gtid(11, false), binlog.rows(T, Operation.INSERT, row(1, "a")), binlog.xid());
    ResumePoint boundary = assembler.boundary();
    feed(binlog.gtid(12, false), binlog.rows(T, Operation.INSERT, row(2, "half")));
    assertThat(assembler.boundary()).isEqualTo(boundary);
    assembler.startSession();
    Events again = new Events();
    assembler.onEvent(again.rotate(FILE, boundary.offset()));
    feed(again.gtid(12, false), again.rows(T, Operation.INSERT, row(2, "whole")), again.xid());
    assertThat(sink.transactions).hasSize(2);
    assertThat(sink.transactions.get(1).events().get(0).after()).isEqualTo(row(2, "whole"));
  }

  private void feed(com.github.shyiko.mysql.binlog.event.Event... events) throws InterruptedException {
    for (var e : events) {
      assembler.onEvent(e);
    }
  }

  private static Row row(long id, String v) {
    return Row.of(T, id, v);
  }
}
