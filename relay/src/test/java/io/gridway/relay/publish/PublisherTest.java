package io.gridway.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.PolicyLoader;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.policy.ActivePolicies;
import io.gridway.relay.position.PositionFile;
import io.gridway.relay.position.PositionRecorder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublisherTest {
  private static final TableSchema KEEP = TableSchema.of("s", "db", "keep", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));
  private static final TableSchema SKIP = TableSchema.of("s", "db", "skip", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));

  @TempDir Path dir;

  private static Transaction tx(long scn, TableSchema table, int rows, int valueChars) {
    List<ChangeEvent> events = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      events.add(ChangeEvent.insert(table, Row.of(table, scn * 1000 + i, "x".repeat(valueChars)), new Scn(scn), scn, 0));
    }
    return new Transaction(new Scn(scn), scn, new SourcePosition.Generated(scn), "", events);
  }

  private static EventBuffer buffer(long floor) {
    return new EventBuffer(64L << 20, 1 << 20, 1024, floor);
  }

  @Test
  void transactionsAtOrBelowTheProcessedScnAreSkippedAfterAResume() {
    EventBuffer buffer = buffer(20);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry());
    publisher.accept(tx(19, KEEP, 1, 1));
    publisher.accept(tx(20, KEEP, 1, 1));
    publisher.accept(tx(21, KEEP, 1, 1));
    assertThat(buffer.windowsPublished()).isEqualTo(1);
    assertThat(buffer.newestScn()).isEqualTo(21);
    assertThat(publisher.skippedOnResume()).isEqualTo(2);
  }

  @Test
  void aTransactionThePolicyDropsStillAdvancesTheScnAndThePosition() throws Exception {
    EventBuffer buffer = buffer(0);
    ActivePolicies policies = new ActivePolicies(List.of(PolicyLoader.create().parse("p.yaml", "name: p\nversion: 1\nexclude: [db.skip]\n")));
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    PositionRecorder positions = new PositionRecorder(file, null, Duration.ZERO, Clock.systemUTC(), buffer::evictedThroughScn);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry(), policies, positions);
    publisher.accept(tx(5, KEEP, 1, 1));
    publisher.accept(tx(6, SKIP, 2, 1));
    positions.flush();
    assertThat(buffer.windowsPublished()).isEqualTo(1);
    assertThat(buffer.processedScn()).isEqualTo(6);
    assertThat(publisher.droppedByPolicy()).isEqualTo(1);
    assertThat(file.read().last().scn()).isEqualTo(6);
  }

  @Test
  void withoutPolicyFilesRowsAreRoutedByKeyHashAndTruncateReachesEveryPartition() {
    EventBuffer buffer = buffer(0);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry(), ActivePolicies.none(), null, 4, true);
    publisher.accept(tx(5, KEEP, 40, 1)); // 40 keys, all in partition 0 as the binlog fetcher leaves them
    assertThat(List.of(0, 1, 2, 3)).allSatisfy(p -> assertThat(buffer.newestScn(p)).isEqualTo(5));
    publisher.accept(new Transaction(new Scn(6), 6, new SourcePosition.Generated(6), "",
        List.of(new ChangeEvent(KEEP, io.gridway.core.event.Operation.TRUNCATE, null, null, null, new Scn(6), 6, 0, ""))));
    assertThat(List.of(0, 1, 2, 3)).allSatisfy(p -> assertThat(buffer.newestScn(p)).isEqualTo(6));
    assertThat(buffer.eventsPublished()).isEqualTo(40 + 4);

    EventBuffer synthetic = buffer(0); // a source that assigns its own partitions is left alone
    new Publisher("s", synthetic, new SchemaRegistry(), ActivePolicies.none(), null, 4, false).accept(tx(5, KEEP, 40, 1));
    assertThat(synthetic.newestScn(0)).isEqualTo(5);
    assertThat(synthetic.newestScn(1)).isEqualTo(-1);
  }

  @Test
  void aHeartbeatWithAPositionMovesThePositionFileOnlyWhenItAdvancesTheScn() throws Exception {
    EventBuffer buffer = buffer(0);
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    PositionRecorder positions = new PositionRecorder(file, null, Duration.ZERO, Clock.systemUTC(), buffer::evictedThroughScn);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry(), ActivePolicies.none(), positions);
    publisher.accept(tx(5, KEEP, 1, 1));
    publisher.heartbeat(new Heartbeat(new Scn(9), 1, new SourcePosition.Generated(9))); // an idle source moved on
    positions.flush();
    assertThat(file.read().last()).satisfies(c -> {
      assertThat(c.scn()).isEqualTo(9);
      assertThat(c.position()).isEqualTo(new SourcePosition.Generated(9));
    });
    publisher.heartbeat(new Heartbeat(new Scn(9), 2, new SourcePosition.Generated(8))); // not past what is processed
    publisher.heartbeat(new Heartbeat(new Scn(12), 3)); // no position: only the readers' heartbeats move
    positions.flush();
    assertThat(file.read().last().position()).isEqualTo(new SourcePosition.Generated(9));
    assertThat(buffer.processedScn()).isEqualTo(12);
  }

  @Test
  void aFreshStartTakesItsFloorFromTheFetchersStartHeartbeatAndStoresThatPosition() throws Exception {
    EventBuffer buffer = EventBuffer.startingAtFetcher(64L << 20, 1 << 20, 1024);
    PositionFile file = new PositionFile(dir.resolve("pos.json"));
    PositionRecorder positions = new PositionRecorder(file, null, Duration.ZERO, Clock.systemUTC(), buffer::evictedThroughScn);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry(), ActivePolicies.none(), positions);
    publisher.heartbeat(new Heartbeat(new Scn(40), 1, new SourcePosition.Generated(40))); // where the fetcher starts
    positions.flush();
    assertThat(buffer.floorPending()).isFalse();
    assertThat(buffer.evictedThroughScn()).isEqualTo(40);
    assertThat(file.read().last().position()).as("a restart before any window resumes here")
        .isEqualTo(new SourcePosition.Generated(40));
    publisher.accept(tx(45, KEEP, 1, 1));
    assertThat(buffer.evictedThroughScn()).isEqualTo(40);
    assertThat(buffer.newestScn()).isEqualTo(45);
  }

  @Test
  void aFetcherThatDoesNotSayWhereItStartsGivesAFloorJustBelowItsFirstTransaction() {
    EventBuffer buffer = EventBuffer.startingAtFetcher(64L << 20, 1 << 20, 1024);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry());
    publisher.accept(tx(45, KEEP, 1, 1));
    assertThat(buffer.evictedThroughScn()).isEqualTo(44);
    assertThat(buffer.windowsPublished()).isEqualTo(1);
    publisher.heartbeat(new Heartbeat(new Scn(50), 2));
    assertThat(buffer.evictedThroughScn()).isEqualTo(44);
    assertThat(buffer.processedScn()).isEqualTo(50);
  }

  @Test
  void aWindowLargerThanMaxWindowStopsTheSourceWithAClearError() {
    EventBuffer buffer = buffer(0);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry());
    publisher.accept(tx(1, KEEP, 1, 10));
    assertThatThrownBy(() -> publisher.accept(tx(2, KEEP, 300, 4000))).isInstanceOf(FetcherException.class)
        .hasMessageContaining("larger than buffer.maxWindow").hasMessageContaining("raise buffer.maxWindow");
    assertThat(publisher.windowsTooLarge()).isEqualTo(1);
    assertThat(publisher.failure()).isNotNull();
    assertThatThrownBy(() -> publisher.accept(tx(3, KEEP, 1, 10))).isInstanceOf(FetcherException.class);
    assertThat(buffer.newestScn()).isEqualTo(1);
    assertThat(publisher.position()).isEqualTo(new SourcePosition.Generated(1));
  }
}
