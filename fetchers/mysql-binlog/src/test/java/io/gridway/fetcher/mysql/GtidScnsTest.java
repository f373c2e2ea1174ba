package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.shyiko.mysql.binlog.event.Event;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code scn: gtid}: SCNs from the MariaDB GTID sequence, the same whichever server's binlog carries them. */
class GtidScnsTest {
  private static final TableSchema T = TableSchema.of("src", "db", "t",
      List.of(Column.of("id", ColumnType.INT).notNull(), Column.of("v", ColumnType.VARCHAR)), List.of("id"));

  private final RecordingSink sink = new RecordingSink();
  private final MutableClock clock = new MutableClock(Instant.parse("2024-01-01T00:00:00Z"));

  @Test
  void aStartsScnIsTheExecutedSetsSequenceUnderGtidAndTheFilePositionUnderFile() {
    // what a fetcher announces before reading: the relay's buffer floor
    assertThat(new GtidScns(0, "0-1-41,1-1-7").at(new ResumePoint("", 0, "0-1-41,1-1-7"))).isEqualTo(Scn.ofSequence(41));
    ScnRule file = new ScnRule.FileScns();
    assertThat(file.at(new ResumePoint("mariadb-bin.000003", 1234, ""))).isEqualTo(Scn.ofBinlog(3, 1234));
    assertThat(file.at(new ResumePoint("", 0, "0-1-41"))).as("a start by GTID set: no file yet").isNull();
  }

  @Test
  void aTransactionsScnIsItsSequenceNumberShiftedPastTheSnapshotRoom() {
    GtidScns rule = new GtidScns(0, "0-1-10");
    assertThat(rule.passed("0-1-11", 7, 1234)).isEqualTo(Scn.ofSequence(11));
    assertThat(rule.passed("0-2-12", 1, 4)).isEqualTo(Scn.ofSequence(12)); // another server, another file: same rule
    assertThat(rule.heartbeat(1, 99_999)).isEqualTo(Scn.ofSequence(12));
    assertThat(rule.passed("", 1, 500)).isNull();
  }

  @Test
  void theStartSetGivesTheLastSequenceOfTheDomainFollowed() {
    GtidScns rule = new GtidScns(2, "0-1-500,2-7-40,3-1-9");
    assertThat(rule.heartbeat(1, 4)).isEqualTo(Scn.ofSequence(40));
    assertThat(GtidScns.sequence(2, "0-1-500, 2-7-40")).isEqualTo(40);
    assertThat(GtidScns.sequence(5, "0-1-500")).isZero();
    assertThat(GtidScns.entry(0, "")).isEmpty();
  }

  @Test
  void aGtidIsReadInPlaceExactlyAsSplittingItOnDashesReadIt() {
    assertThat(GtidScns.parse("0-1-18446744073709551615")).containsExactly(0, 1, -1); // unsigned
    assertThat(GtidScns.parse(" 12-345-6789 ")).containsExactly(12, 345, 6789);
    // every string of up to 7 characters over digits, dashes, a sign, a space and a letter: the same numbers or the same error
    char[] alphabet = {'0', '7', '-', '+', ' ', 'x'};
    for (int length = 0; length <= 7; length++) {
      for (long n = 0, count = (long) Math.pow(alphabet.length, length); n < count; n++) {
        char[] text = new char[length];
        long rest = n;
        for (int i = 0; i < length; i++, rest /= alphabet.length) {
          text[i] = alphabet[(int) (rest % alphabet.length)];
        }
        String gtid = new String(text);
        long[] expected = splitParse(gtid);
        if (expected == null) {
          assertThatThrownBy(() -> GtidScns.parse(gtid)).as("'%s'", gtid).isInstanceOf(FetcherException.class)
              .hasMessageContaining("'" + gtid + "' is not a MariaDB GTID");
        } else {
          assertThat(GtidScns.parse(gtid)).as("'%s'", gtid).containsExactly(expected);
        }
      }
    }
  }

  /** How parse read a GTID before: trim, split on "-", three unsigned numbers; null where it refused. */
  private static long[] splitParse(String gtid) {
    String[] parts = gtid.trim().split("-");
    try {
      return parts.length == 3
          ? new long[] {Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[1]), Long.parseUnsignedLong(parts[2])}
          : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Test
  void aSecondDomainIsRefusedNamingTheGtidAndTheDomainFollowed() {
    GtidScns rule = new GtidScns(0, "0-1-10");
    assertThatThrownBy(() -> rule.passed("1-1-11", 1, 4)).isInstanceOf(FetcherException.class)
        .hasMessageContaining("transaction 1-1-11 is in GTID domain 1").hasMessageContaining("gtidDomain: 0");
  }

  @Test
  void aSequenceThatDoesNotGrowIsRefusedWithTheStrictModeAdvice() {
    GtidScns rule = new GtidScns(0, "0-1-10");
    rule.passed("0-1-11", 1, 4);
    assertThatThrownBy(() -> rule.passed("0-2-11", 1, 8)).isInstanceOf(FetcherException.class)
        .hasMessageContaining("0-2-11 does not follow 0-1-11").hasMessageContaining("gtid_strict_mode=ON");
  }

  @Test
  void aMySqlGtidIsRefusedClearly() {
    assertThatThrownBy(() -> new GtidScns(0, "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5"))
        .isInstanceOf(FetcherException.class).hasMessageContaining("not a MariaDB GTID")
        .hasMessageContaining("uuid:n");
  }

  @Test
  void positionsAreTheGtidSetAloneOnceItIsKnown() {
    GtidScns rule = new GtidScns(0, "");
    assertThat(rule.after("mariadb-bin.000003", 400, "0-1-5")).isEqualTo(new ResumePoint("", 0, "0-1-5"));
    assertThat(rule.position(new ResumePoint("", 0, "0-1-5"))).isEqualTo(SourcePosition.Binlog.ofGtidSet("0-1-5"));
    // a server that never logged a GTID: only the file can say where, and nothing is persisted yet
    assertThat(rule.after("mariadb-bin.000001", 330, "")).isEqualTo(new ResumePoint("mariadb-bin.000001", 330, ""));
    assertThat(rule.position(new ResumePoint("mariadb-bin.000001", 330, ""))).isNull();
    assertThat(ResumePoint.after(SourcePosition.Binlog.ofGtidSet("0-1-5"))).isEqualTo(new ResumePoint("", 0, "0-1-5"));
  }

  @Test
  void transactionsReadFromTwoServersGetScnsAndPositionsThatFollowTheGtidOnly() throws Exception {
    TransactionAssembler assembler = assembler(new ResumePoint("", 0, "0-1-10"));
    Events first = new Events();
    feed(assembler, first.rotate("mariadb-bin.000007", 4), first.gtid(11, false),
        first.rows(T, Operation.INSERT, row(1, "a")), first.xid(), first.gtid(12, false),
        first.rows(T, Operation.INSERT, row(2, "b")), first.xid());
    assertThat(assembler.boundary()).isEqualTo(new ResumePoint("", 0, "0-1-12"));
    // the old primary is gone; a promoted replica, with its own file numbering, goes on from the boundary
    assembler.startSession();
    Events promoted = new Events();
    feed(assembler, promoted.rotate("replica-bin.000002", 4), promoted.gtid(13, false),
        promoted.rows(T, Operation.INSERT, row(3, "c")), promoted.xid(), promoted.heartbeat());
    assertThat(sink.transactions).extracting(Transaction::scn)
        .containsExactly(Scn.ofSequence(11), Scn.ofSequence(12), Scn.ofSequence(13));
    assertThat(sink.transactions).extracting(Transaction::position).containsExactly(
        SourcePosition.Binlog.ofGtidSet("0-1-11"), SourcePosition.Binlog.ofGtidSet("0-1-12"),
        SourcePosition.Binlog.ofGtidSet("0-1-13"));
    assertThat(sink.heartbeats).singleElement().satisfies(h -> {
      assertThat(h.scn()).isEqualTo(Scn.ofSequence(13));
      assertThat(h.position()).isEqualTo(SourcePosition.Binlog.ofGtidSet("0-1-13"));
    });
  }

  @Test
  void rolledBackAndFilteredGroupsStillMoveTheSequenceSoHeartbeatsStayBelowTheNextTransaction() throws Exception {
    TransactionAssembler assembler = assembler(new ResumePoint("", 0, "0-1-10"));
    Events binlog = new Events();
    feed(assembler, binlog.rotate("mariadb-bin.000001", 4), binlog.gtid(11, false), binlog.skippedRows(), binlog.xid(),
        binlog.heartbeat());
    assertThat(sink.heartbeats).singleElement().satisfies(h -> assertThat(h.scn()).isEqualTo(Scn.ofSequence(11)));
    feed(assembler, binlog.gtid(12, false), binlog.rows(T, Operation.INSERT, row(1, "a")), binlog.xid());
    assertThat(sink.transactions.get(0).scn().isAfter(sink.heartbeats.get(0).scn())).isTrue();
  }

  @Test
  void aTransactionOfAnotherDomainStopsTheAssembler() throws Exception {
    TransactionAssembler assembler = assembler(new ResumePoint("", 0, "0-1-10"));
    Events binlog = new Events();
    feed(assembler, binlog.rotate("mariadb-bin.000001", 4));
    assertThatThrownBy(() -> feed(assembler, binlog.gtid(1, 3, false), binlog.rows(T, Operation.INSERT, row(1, "a")),
        binlog.xid())).isInstanceOf(FetcherException.class).hasMessageContaining("GTID domain 1");
    assertThat(sink.transactions).isEmpty();
  }

  private TransactionAssembler assembler(ResumePoint start) {
    return new TransactionAssembler(sink,
        new SchemaChanges(new TableRegistry(TableFilter.all(), new SchemaFactory("src"), TableDescriber.NONE),
            new SchemaFactory("src"), TableDescriber.NONE),
        start, new TransactionAssembler.Limits(1000, 1 << 20), clock, new GtidScns(0, start.gtidSet()));
  }

  private static void feed(TransactionAssembler assembler, Event... events) throws InterruptedException {
    for (Event e : events) {
      assembler.onEvent(e);
    }
  }

  private static Row row(long id, String v) {
    return Row.of(T, id, v);
  }
}
