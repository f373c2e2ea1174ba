package io.gridway.consumer;

import java.net.URI;
import java.util.List;

/**
 * Which relays serve a partition now, in failover order: the configured list ({@link #fixed}), or the relays a Helix
 * spectator sees (the consumer service's discovery, given to {@link GridwayConsumer.Builder#relayEndpoints}). The one place pullers ask; they ask again on every (re)connect, so a
 * change is followed at the next connection, and {@link GridwayConsumer} tells them at once when the discovered set
 * changes.
 *
 * <p>Thread-safe.
 */
public interface RelayEndpoints extends AutoCloseable {
  /** The relays serving {@code partition}, possibly none (they may come later). */
  List<URI> relays(int partition);

  /** Calls {@code listener} (on another thread, briefly) whenever the relays may have changed. */
  void onChange(Runnable listener);

  /** Whether the relays come from the cluster (and may be none for a while). */
  boolean discovered();

  @Override
  void close();

  /** The same relays for every partition, never changing: standalone mode. */
  static RelayEndpoints fixed(List<URI> relays) {
    List<URI> copy = List.copyOf(relays);
    return new RelayEndpoints() {
      @Override
      public List<URI> relays(int partition) {
        return copy;
      }

      @Override
      public void onChange(Runnable listener) {}

      @Override
      public boolean discovered() {
        return false;
      }

      @Override
      public void close() {}
    };
  }
}
