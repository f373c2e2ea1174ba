package io.gridway.cluster;

import java.util.List;
import java.util.Objects;
import org.apache.helix.HelixManager;
import org.apache.helix.InstanceType;
import org.apache.helix.PropertyType;
import org.apache.helix.model.InstanceConfig;
import org.apache.helix.spectator.RoutingTableProvider;

/**
 * Where the relays of a source are: a Helix spectator following the external view of {@code relay.<source>}
 * resources, answering which live relays serve a partition now. Listeners are told after every change
 * (a relay joined, left or moved), on a Helix thread; they should only note the change and return.
 *
 * <p>Thread-safe. {@link #close()} it (non-daemon Helix threads).
 */
public final class RelayDirectory implements AutoCloseable {
  private final HelixManager manager;
  private final RoutingTableProvider routing;

  private RelayDirectory(HelixManager manager, RoutingTableProvider routing) {
    this.manager = manager;
    this.routing = routing;
  }

  /** Joins {@code cluster} as spectator {@code name}. */
  public static RelayDirectory open(ZkConfig zk, String cluster, String name) {
    HelixManager manager = Helix.manager(zk, cluster, Helix.requireName(name, "spectator"), InstanceType.SPECTATOR);
    try {
      manager.connect();
      return new RelayDirectory(manager, new RoutingTableProvider(manager, PropertyType.EXTERNALVIEW));
    } catch (Exception e) {
      manager.disconnect();
      throw new IllegalStateException("cannot follow relays of cluster " + cluster + ": " + e.getMessage(), e);
    }
  }

  /** The endpoints ({@code http://host:port}) of the live relays serving {@code partition} of {@code source}, sorted. */
  public List<String> endpoints(String source, int partition) {
    String resource = Helix.relayResource(source);
    List<InstanceConfig> instances = routing.getInstances(resource, Helix.partitionName(resource, partition), Helix.ONLINE);
    return instances.stream()
        .map(c -> c.getRecord().getSimpleField(Helix.ENDPOINT_FIELD))
        .filter(Objects::nonNull)
        .sorted()
        .toList();
  }

  /** Calls {@code listener} after every change of the routing table. */
  public void addListener(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
    routing.addRoutingTableChangeListener((snapshot, context) -> listener.run(), null);
  }

  @Override
  public void close() {
    try {
      routing.shutdown();
    } finally {
      manager.disconnect();
    }
  }
}
