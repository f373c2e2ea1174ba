package io.gridway.cluster.internal;

/** What a state model calls; implemented by the participants. Not an API. */
public interface PartitionCallbacks {
  /** The partition becomes active here (LEADER, or ONLINE for relays). */
  void activate(String resource, int partition);

  /** The partition stops here; returns when it has stopped. */
  void deactivate(String resource, int partition);
}
