package io.gridway.relay;

import io.gridway.relay.cluster.RelayMembership;
import io.gridway.relay.position.PositionFile;
import io.gridway.relay.position.PositionStorage;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A relay process as {@code RelayMain} and {@code gridway relay} run it: the {@link Relay}, and in cluster mode its
 * {@link RelayMembership} around it (ZooKeeper before the relay reads its position, joining once the HTTP API is
 * bound, leaving before the relay stops, the position store closed after its last write).
 *
 * <p>{@link #create} may fail on configuration ({@link IllegalArgumentException}, {@link UncheckedIOException} for an
 * unreadable position file) or on a cluster still unreachable after {@code startTimeout} ({@link IllegalStateException});
 * {@link #start} once; {@link
 * #close} once. Thread-safe.
 */
public final class RelayService implements AutoCloseable {
  private final RelayConfig config;
  private final RelayMembership membership;
  private final Relay relay;
  private volatile String endpoint;

  private RelayService(RelayConfig config, RelayMembership membership, Relay relay) {
    this.config = config;
    this.membership = membership;
    this.relay = relay;
  }

  /**
   * Builds the relay; in cluster mode first connects to ZooKeeper (starting the embedded one if configured),
   * retrying with backoff for up to {@code startTimeout} while it cannot be reached.
   *
   * @throws IllegalStateException when ZooKeeper stayed unreachable for {@code startTimeout} (exit code 1)
   */
  public static RelayService create(RelayConfig config, Clock clock) throws InterruptedException {
    return create(config, clock, StartRetry.real(clock));
  }

  static RelayService create(RelayConfig config, Clock clock, StartRetry retry) throws InterruptedException {
    // Listen first: readers of a restarting relay get 503 STARTING with a retry hint, not a refused connection,
    // while ZooKeeper is reached and the event buffer is allocated (seconds for a large buffer).
    RelayListener listener = RelayListener.create(config, clock);
    try {
      listener.listen();
      PositionStorage file = config.positionFile() == null ? null : new PositionFile(Path.of(config.positionFile()));
      if (config.cluster() == null) {
        return new RelayService(config, null, new Relay(config, clock, file, listener));
      }
      listener.phase("joining cluster " + config.cluster().name());
      RelayMembership membership = retry.run("joining cluster " + config.cluster().name() + " (ZooKeeper "
          + config.cluster().zkConfig().connectString() + ")", config.startTimeout(),
          () -> RelayMembership.open(config.cluster(), config.source().id(), config.source().partitions()));
      try {
        return new RelayService(config, membership, new Relay(config, clock, membership.positions(file, clock), listener));
      } catch (RuntimeException e) {
        membership.close();
        throw e;
      }
    } catch (RuntimeException | InterruptedException e) {
      listener.close();
      throw e;
    }
  }

  /** Starts the relay, then (cluster mode) joins the cluster; returns the bound address. */
  public InetSocketAddress start() throws InterruptedException {
    InetSocketAddress address = relay.start();
    endpoint = membership == null ? "http://" + address.getHostString() + ":" + address.getPort()
        : membership.join(address, config.http().host(), config.http().scheme());
    return address;
  }

  /** The endpoint consumers use: the advertised one in cluster mode; null before {@link #start}. */
  public String endpoint() {
    return endpoint;
  }

  public Relay relay() {
    return relay;
  }

  @Override
  public void close() {
    try {
      if (membership != null) {
        membership.leave();
      }
    } finally {
      try {
        relay.close();
      } finally {
        if (membership != null) {
          membership.close();
        }
      }
    }
  }
}
