package io.gridway.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
import io.gridway.relay.buffer.EventBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PublishQueueTest {
  private static final TableSchema T = TableSchema.of("s", "db", "t", List.of(
      Column.of("id", ColumnType.BIGINT).notNull(), Column.text("v", ColumnType.VARCHAR, "utf8mb4")), List.of("id"));

  private static Transaction tx(long scn, int rows, int chars) {
    List<ChangeEvent> events = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      events.add(ChangeEvent.insert(T, Row.of(T, scn * 1000 + i, "x".repeat(chars)), new Scn(scn), scn, 0));
    }
    return new Transaction(new Scn(scn), scn, new SourcePosition.Generated(scn), "", events);
  }

  @Test
  void publishesInOrderAndCloseDrainsWhatIsQueued() throws Exception {
    EventBuffer buffer = new EventBuffer(64L << 20, 1 << 20, 4096, 0);
    PublishQueue queue = new PublishQueue("s", new Publisher("s", buffer, new SchemaRegistry()), 4096);
    queue.start();
    for (long scn = 1; scn <= 500; scn++) {
      queue.accept(tx(scn, 1 + (int) (scn % 20), 100)); // some bigger than the 4 KiB bound: they go alone
    }
    queue.heartbeat(new Heartbeat(new Scn(600), 0));
    queue.close();
    assertThat(buffer.windowsPublished()).isEqualTo(500);
    assertThat(buffer.processedScn()).isEqualTo(600);
  }

  @Test
  void theFetcherWaitsOnceTheQueuedTransactionsHoldMaxBytes() throws Exception {
    EventBuffer buffer = new EventBuffer(64L << 20, 1 << 20, 4096, 0);
    PublishQueue queue = new PublishQueue("s", new Publisher("s", buffer, new SchemaRegistry()), 1 << 20);
    // 10 events × (128 + a BIGINT's 32 + 16 + 10,000 chars): 101,760 bytes, 99 KiB of the queue's 1,024
    assertThat(PublishQueue.heldBytes(tx(1, 10, 10_000))).isEqualTo(101_760);
    AtomicLong accepted = new AtomicLong();
    Thread fetcher = new Thread(() -> {
      try {
        for (long scn = 1; scn <= 30; scn++) {
          queue.accept(tx(scn, 10, 10_000));
          accepted.set(scn);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    fetcher.start(); // the publisher thread is not started yet: nothing leaves the queue
    await().atMost(Duration.ofSeconds(10)).until(() -> fetcher.getState() == Thread.State.WAITING);
    assertThat(accepted.get()).isEqualTo(10); // the 11th would make 1,089 KiB
    queue.start();
    fetcher.join(10_000);
    queue.close();
    assertThat(buffer.windowsPublished()).isEqualTo(30);
  }

  @Test
  void theFetchersOwnEstimateBoundsTheQueueWithoutAnotherPassOverTheValues() throws Exception {
    EventBuffer buffer = new EventBuffer(64L << 20, 1 << 20, 4096, 0);
    PublishQueue queue = new PublishQueue("s", new Publisher("s", buffer, new SchemaRegistry()), 1 << 20);
    assertThat(PublishQueue.heldBytes(tx(1, 1, 10))).isLessThan(1024); // measured, one permit each
    AtomicLong accepted = new AtomicLong();
    Thread fetcher = new Thread(() -> {
      try {
        for (long scn = 1; scn <= 8; scn++) {
          queue.accept(tx(scn, 1, 10), 300 << 10); // the fetcher says 300 KiB
          accepted.set(scn);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    fetcher.start(); // the publisher thread is not started yet: nothing leaves the queue
    await().atMost(Duration.ofSeconds(10)).until(() -> fetcher.getState() == Thread.State.WAITING);
    assertThat(accepted.get()).isEqualTo(3); // the 4th would make 1,200 KiB of the 1,024
    queue.start();
    fetcher.join(10_000);
    queue.close();
    assertThat(buffer.windowsPublished()).isEqualTo(8);
  }

  @Test
  void aPublisherFailureStopsTheFetcherAtItsNextCallAndNothingBehindItIsPublished() throws Exception {
    EventBuffer buffer = new EventBuffer(64L << 20, 1 << 20, 4096, 0);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry());
    PublishQueue queue = new PublishQueue("s", publisher, 1 << 20);
    queue.start();
    queue.accept(tx(1, 1, 10));
    queue.accept(tx(2, 300, 4000)); // > 1 MiB: too large
    try {
      queue.accept(tx(3, 1, 10));
    } catch (FetcherException alreadyFailed) {
      // the publisher thread may have failed on transaction 2 already: then this call is the "next call" that stops
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> publisher.failure() != null);
    assertThatThrownBy(() -> queue.accept(tx(4, 1, 10))).isInstanceOf(FetcherException.class).hasMessageContaining("maxWindow");
    assertThatThrownBy(() -> queue.heartbeat(new Heartbeat(new Scn(5), 0))).isInstanceOf(FetcherException.class);
    queue.close();
    assertThat(buffer.newestScn()).isEqualTo(1);
    assertThat(buffer.windowsPublished()).isEqualTo(1);
  }

  @Test
  void aFetcherFailureIsRecordedAfterWhatItDeliveredBefore() throws Exception {
    EventBuffer buffer = new EventBuffer(64L << 20, 1 << 20, 4096, 0);
    Publisher publisher = new Publisher("s", buffer, new SchemaRegistry());
    PublishQueue queue = new PublishQueue("s", publisher, 1 << 20);
    queue.start();
    queue.accept(tx(1, 3, 10));
    queue.failed(new FetcherException("binlog purged"));
    await().atMost(Duration.ofSeconds(10)).until(() -> publisher.failure() != null);
    queue.close();
    assertThat(buffer.windowsPublished()).isEqualTo(1);
    assertThat(publisher.failure()).hasMessage("binlog purged");
  }
}
