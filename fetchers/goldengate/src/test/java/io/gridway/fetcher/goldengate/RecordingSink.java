package io.gridway.fetcher.goldengate;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.TransactionSink;
import java.util.ArrayList;
import java.util.List;

/** Keeps what a fetcher delivers; thread-safe (the fetcher's thread writes, the test's thread reads). */
final class RecordingSink implements TransactionSink {
  private final List<Transaction> transactions = new ArrayList<>();
  private final List<Heartbeat> heartbeats = new ArrayList<>();
  private final List<Long> heldBytes = new ArrayList<>();
  private volatile FetcherException failure;

  @Override
  public synchronized void accept(Transaction transaction) {
    transactions.add(transaction);
  }

  @Override
  public synchronized void accept(Transaction transaction, long held) {
    heldBytes.add(held);
    accept(transaction);
  }

  /** The fetcher's estimates of the heap each transaction holds, in delivery order. */
  synchronized List<Long> heldBytes() {
    return List.copyOf(heldBytes);
  }

  @Override
  public synchronized void heartbeat(Heartbeat heartbeat) {
    heartbeats.add(heartbeat);
  }

  synchronized List<Heartbeat> heartbeats() {
    return List.copyOf(heartbeats);
  }

  @Override
  public void failed(FetcherException error) {
    failure = error;
  }

  synchronized List<Transaction> transactions() {
    return List.copyOf(transactions);
  }

  synchronized int size() {
    return transactions.size();
  }

  FetcherException failure() {
    return failure;
  }
}
