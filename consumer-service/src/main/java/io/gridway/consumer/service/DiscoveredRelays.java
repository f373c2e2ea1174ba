package io.gridway.consumer.service;

import io.gridway.cluster.RelayDirectory;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.RelayEndpoints;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relays of a source as the cluster sees them: a {@link RelayDirectory} (a Helix spectator on the external view
 * of {@code relay.<source>}) answers which live relays serve a partition, sorted by endpoint. A relay that was
 * killed stays listed until its ZooKeeper session expires; pullers then fail over on the connection error first.
 *
 * <p>While ZooKeeper is unreachable the last known view stays in use. Thread-safe; {@link #close()} it.
 */
public final class DiscoveredRelays implements RelayEndpoints {
  private static final Logger LOG = LoggerFactory.getLogger(DiscoveredRelays.class);
  private static final AtomicInteger SPECTATORS = new AtomicInteger();

  private final RelayDirectory directory;
  private final String source;
  private final AtomicBoolean closed = new AtomicBoolean();

  private DiscoveredRelays(RelayDirectory directory, String source) {
    this.directory = directory;
    this.source = source;
  }

  /** Joins the cluster as a spectator named after the group and this process. */
  public static DiscoveredRelays open(ConsumerConfig.Discovery discovery, String source, String group) {
    String name = ("consumer." + group + "." + ProcessHandle.current().pid() + "." + SPECTATORS.incrementAndGet())
        .replaceAll("[^A-Za-z0-9_.-]", "_");
    name = name.length() > 100 ? name.substring(0, 100) : name;
    ZkConfig zk = ZkConfig.external(discovery.zk()).withSessionTimeout(discovery.sessionTimeout())
        .withTls(discovery.zkTls() == null ? null
            : new io.gridway.cluster.ZkTls(discovery.zkTls().caFile(), discovery.zkTls().keyStoreFile()));
    RelayDirectory directory = RelayDirectory.open(zk, discovery.cluster(), name);
    LOG.info("following the relays of source {} in cluster {} ({}) as {}", source, discovery.cluster(), discovery.zk(), name);
    return new DiscoveredRelays(directory, source);
  }

  @Override
  public List<URI> relays(int partition) {
    return directory.endpoints(source, partition).stream().map(URI::create).toList();
  }

  @Override
  public void onChange(Runnable listener) {
    directory.addListener(listener);
  }

  @Override
  public boolean discovered() {
    return true;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      directory.close();
    }
  }
}
