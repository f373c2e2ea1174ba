package io.gridway.consumer;

import io.gridway.core.event.Scn;
import java.net.URI;

/**
 * The mutable state behind a {@link PartitionStatus}: written by the puller, the committer and the
 * checkpoint writer, read by whoever asks for a status.
 *
 * <p>Thread-safe: every method synchronizes. Terminal states (FAILED, STOPPED) are sticky: a later
 * RECONNECTING from a puller that is shutting down cannot hide why the partition stopped.
 */
final class PartitionState {
  private final int partition;
  private PartitionStatus.State state = PartitionStatus.State.STARTING;
  private long checkpoint;
  private long durable;
  /** Written once per window by the puller: volatile rather than under the lock. */
  private volatile long received;
  private URI relay;
  private Long oldestAvailable;
  private String detail = "";
  private Throwable failure;

  PartitionState(int partition, long startScn) {
    this.partition = partition;
    this.checkpoint = startScn;
    this.durable = startScn;
    this.received = startScn;
  }

  synchronized void set(PartitionStatus.State newState, String newDetail) {
    if (isTerminal()) {
      return;
    }
    state = newState;
    detail = newDetail == null ? "" : newDetail;
    if (newState != PartitionStatus.State.SCN_EVICTED) {
      oldestAvailable = null;
    }
  }

  synchronized void evicted(long oldest, String newDetail) {
    if (isTerminal()) {
      return;
    }
    state = PartitionStatus.State.SCN_EVICTED;
    oldestAvailable = oldest;
    detail = newDetail;
  }

  /** The first failure wins; later ones only add noise. */
  synchronized boolean fail(String newDetail, Throwable cause) {
    if (isTerminal()) {
      return false;
    }
    state = PartitionStatus.State.FAILED;
    detail = newDetail;
    failure = cause;
    return true;
  }

  synchronized void stopped() {
    if (state != PartitionStatus.State.FAILED) {
      state = PartitionStatus.State.STOPPED;
    }
  }

  synchronized boolean isTerminal() {
    return state == PartitionStatus.State.FAILED || state == PartitionStatus.State.STOPPED;
  }

  synchronized PartitionStatus.State state() {
    return state;
  }

  synchronized void committed(long scn) {
    checkpoint = scn;
  }

  synchronized void durable(long scn) {
    durable = scn;
  }

  void received(long scn) {
    received = scn;
  }

  synchronized void relay(URI uri) {
    relay = uri;
  }

  synchronized PartitionStatus snapshot() {
    return new PartitionStatus(partition, state, new Scn(checkpoint), new Scn(durable), new Scn(received), relay,
        oldestAvailable == null ? null : new Scn(oldestAvailable), detail, failure);
  }
}
