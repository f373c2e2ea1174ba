package io.gridway.consumer;

import io.gridway.core.event.Scn;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutable state behind a {@link PartitionStatus}: written by the puller, the committer and the
 * checkpoint writer, read by whoever asks for a status.
 *
 * <p>Thread-safe: every method synchronizes. Terminal states (FAILED, STOPPED) are sticky: a later
 * RECONNECTING from a puller that is shutting down cannot hide why the partition stopped. A change of state is told
 * to the {@link PartitionListener} after the lock is released.
 */
final class PartitionState {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionState.class);

  private final int partition;
  private final PartitionListener listener;
  private PartitionStatus.State state = PartitionStatus.State.STARTING;
  private long checkpoint;
  private long durable;
  /** Written once per window by the puller: volatile rather than under the lock. */
  private volatile long received;
  private long checkpointCommitMillis;
  private URI relay;
  private Long oldestAvailable;
  private String detail = "";
  private Throwable failure;

  PartitionState(int partition, long startScn, PartitionListener listener) {
    this.partition = partition;
    this.listener = listener;
    this.checkpoint = startScn;
    this.durable = startScn;
    this.received = startScn;
  }

  void set(PartitionStatus.State newState, String newDetail) {
    PartitionStatus changed;
    synchronized (this) {
      if (isTerminal()) {
        return;
      }
      PartitionStatus.State old = state;
      state = newState;
      detail = newDetail == null ? "" : newDetail;
      if (newState != PartitionStatus.State.SCN_EVICTED) {
        oldestAvailable = null;
      }
      changed = old != newState ? snapshot() : null;
    }
    tell(changed);
  }

  void evicted(long oldest, String newDetail) {
    PartitionStatus changed;
    synchronized (this) {
      if (isTerminal()) {
        return;
      }
      PartitionStatus.State old = state;
      state = PartitionStatus.State.SCN_EVICTED;
      oldestAvailable = oldest;
      detail = newDetail;
      changed = old != state ? snapshot() : null;
    }
    tell(changed);
  }

  /** The first failure wins; later ones only add noise. */
  boolean fail(String newDetail, Throwable cause) {
    PartitionStatus failed;
    synchronized (this) {
      if (isTerminal()) {
        return false;
      }
      state = PartitionStatus.State.FAILED;
      detail = newDetail;
      failure = cause;
      failed = snapshot();
    }
    tell(failed);
    return true;
  }

  void stopped() {
    PartitionStatus changed;
    synchronized (this) {
      if (isTerminal()) {
        return;
      }
      state = PartitionStatus.State.STOPPED;
      changed = snapshot();
    }
    tell(changed);
  }

  private void tell(PartitionStatus changed) {
    if (changed == null) {
      return;
    }
    try {
      listener.onStateChange(changed);
      if (changed.state() == PartitionStatus.State.FAILED) {
        listener.onFailure(changed);
      }
    } catch (RuntimeException e) {
      LOG.warn("partition {}: the partition listener threw on {} (ignored)", partition, changed.state(), e);
    }
  }

  synchronized boolean isTerminal() {
    return state == PartitionStatus.State.FAILED || state == PartitionStatus.State.STOPPED;
  }

  synchronized PartitionStatus.State state() {
    return state;
  }

  /** {@code commitMicros}: the source commit time of the newest window committed (0 when unknown: kept as it was). */
  synchronized void committed(long scn, long commitMicros) {
    checkpoint = scn;
    if (commitMicros > 0) {
      checkpointCommitMillis = commitMicros / 1000;
    }
  }

  synchronized void durable(long scn) {
    durable = scn;
  }

  /** The newest SCN received, for the SCN-lag gauge. */
  long receivedScn() {
    return received;
  }

  void received(long scn) {
    received = scn;
  }

  synchronized void relay(URI uri) {
    relay = uri;
  }

  synchronized PartitionStatus snapshot() {
    return new PartitionStatus(partition, state, new Scn(checkpoint), checkpointCommitMillis, new Scn(durable), new Scn(received), relay,
        oldestAvailable == null ? null : new Scn(oldestAvailable), detail, failure);
  }
}
