package io.gridway.fetcher.mysql;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** A sink that keeps everything it is given; thread-safe, for tests. */
final class RecordingSink implements TransactionSink {
  final List<Transaction> transactions = new CopyOnWriteArrayList<>();
  final List<Heartbeat> heartbeats = new CopyOnWriteArrayList<>();
  /** The fetcher's estimate of each transaction's heap, where it gave one (-1 where it did not). */
  final List<Long> heldBytes = new CopyOnWriteArrayList<>();
  volatile FetcherException failure;

  @Override
  public void accept(Transaction transaction) {
    heldBytes.add(-1L);
    transactions.add(transaction);
  }

  @Override
  public void accept(Transaction transaction, long estimate) {
    heldBytes.add(estimate);
    transactions.add(transaction);
  }

  @Override
  public void heartbeat(Heartbeat heartbeat) {
    heartbeats.add(heartbeat);
  }

  @Override
  public void failed(FetcherException error) {
    failure = error;
  }

  /** Every event delivered so far, in order. */
  List<ChangeEvent> events() {
    List<ChangeEvent> all = new ArrayList<>();
    for (Transaction t : transactions) {
      all.addAll(t.events());
    }
    return all;
  }

  List<ChangeEvent> events(Predicate<ChangeEvent> filter) {
    return events().stream().filter(filter).toList();
  }

  int rowEvents() {
    int n = 0;
    for (Transaction t : transactions) {
      for (ChangeEvent e : t.events()) {
        if (e.before() != null || e.after() != null) {
          n++;
        }
      }
    }
    return n;
  }
}
