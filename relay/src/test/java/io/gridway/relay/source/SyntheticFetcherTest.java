package io.gridway.relay.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Operation;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.core.fetch.TransactionSink;
import io.gridway.core.wire.FrameEncoder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class SyntheticFetcherTest {
  private static final SyntheticConfig CONFIG = new SyntheticConfig(3, 1100, 0L, 1, 50, 20, 5, 99L, 2_000L);

  private static final class Collecting implements TransactionSink {
    final List<Transaction> transactions = new CopyOnWriteArrayList<>();

    @Override
    public void accept(Transaction transaction) {
      transactions.add(transaction);
    }

    @Override
    public void heartbeat(Heartbeat heartbeat) {}

    @Override
    public void failed(FetcherException error) {
      throw new AssertionError(error);
    }
  }

  @Test
  void generatesTheSameTransactionsFromTheSameSeed() {
    SyntheticGenerator a = new SyntheticGenerator("s", CONFIG, 8);
    SyntheticGenerator b = new SyntheticGenerator("s", CONFIG, 8);
    for (long n = 1; n <= 200; n++) {
      assertThat(a.transaction(n, 1000)).isEqualTo(b.transaction(n, 1000));
    }
    assertThat(new SyntheticGenerator("s", new SyntheticConfig(3, 1100, 0L, 1, 50, 20, 5, 100L, 0L), 8).transaction(5, 1000))
        .isNotEqualTo(a.transaction(5, 1000));
  }

  @Test
  void transactionsHaveIncreasingScnsSizesInRangeAndRowsOfAboutRowBytes() {
    SyntheticGenerator generator = new SyntheticGenerator("s", CONFIG, 8);
    FrameEncoder encoder = new FrameEncoder();
    long inserts = 0;
    long others = 0;
    for (long n = 1; n <= 300; n++) {
      Transaction t = generator.transaction(n, 5_000_000);
      assertThat(t.scn().value()).isEqualTo(n);
      assertThat(t.position()).isEqualTo(new SourcePosition.Generated(n));
      assertThat(t.size()).isBetween(1, 50);
      for (var e : t.events()) {
        assertThat(e.partition()).isBetween(0, 7);
        if (e.op() == Operation.INSERT) {
          inserts++;
          assertThat(encoder.encode(new Transaction(t.scn(), t.commitTimeMicros(), t.position(), "", List.of(e))).remaining())
              .isBetween(1100, 1250);
        } else {
          others++;
        }
      }
    }
    assertThat(others).isPositive();
    assertThat(inserts).isGreaterThan(others);
  }

  @Test
  void fetcherDeliversUpToMaxEventsThenIdlesAndResumesWhereItStopped() {
    Collecting sink = new Collecting();
    try (SyntheticFetcher fetcher = new SyntheticFetcher("s", CONFIG, 4, Clock.systemUTC())) {
      fetcher.start(null, sink);
      await().atMost(Duration.ofSeconds(20)).until(() -> fetcher.status().detail().contains("idle"));
      assertThat(sink.transactions.stream().mapToInt(Transaction::size).sum()).isGreaterThanOrEqualTo(2000);
      assertThat(fetcher.status().state()).isEqualTo(FetcherStatus.State.RUNNING);
    }
    Transaction last = sink.transactions.get(sink.transactions.size() - 1);
    Collecting resumed = new Collecting();
    try (SyntheticFetcher fetcher = new SyntheticFetcher("s", CONFIG, 4, Clock.systemUTC())) {
      fetcher.start(last.position(), resumed);
      await().atMost(Duration.ofSeconds(20)).until(() -> !resumed.transactions.isEmpty());
      assertThat(resumed.transactions.get(0).scn().value()).isEqualTo(last.scn().value() + 1);
    }
  }

  @Test
  void pacesToTheConfiguredRate() {
    Collecting sink = new Collecting();
    SyntheticConfig paced = new SyntheticConfig(1, 200, 2000L, 10, 10, 0, 0, 1L, 1000L);
    long started = System.nanoTime();
    try (SyntheticFetcher fetcher = new SyntheticFetcher("s", paced, 1, Clock.systemUTC())) {
      fetcher.start(null, sink);
      await().atMost(Duration.ofSeconds(20)).until(() -> fetcher.status().detail().contains("idle"));
    }
    // 1000 events at 2000/s: the last transaction is due at 495 ms
    assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(450);
    assertThat(sink.transactions).hasSize(100);
  }
}
