package io.gridway.relay;

import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.Fetcher;
import io.gridway.policy.PolicyError;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import io.gridway.relay.buffer.BufferMetrics;
import io.gridway.relay.buffer.EventBuffer;
import io.gridway.relay.http.HttpApiServer;
import io.gridway.relay.policy.PolicyReloader;
import io.gridway.relay.position.StoredPosition;
import io.gridway.relay.position.PositionFile;
import io.gridway.relay.position.PositionRecorder;
import io.gridway.relay.position.PositionState;
import io.gridway.relay.position.PositionStorage;
import io.gridway.relay.publish.PublishQueue;
import io.gridway.relay.publish.Publisher;
import io.gridway.relay.publish.SchemaRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay process's composition root: fetcher → publish queue (a thread hand-off) → publisher
 * (fetch policy) → event buffer → HTTP API, plus the position file and policy hot reload on one maintenance thread, wired from a {@link
 * RelayConfig}. {@link #start} once, {@link #close} once (HTTP first, so responses end at a window
 * boundary, then the fetcher, then a last position write). Thread-safe.
 */
public final class Relay implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Relay.class);
  /** Enough for the fetcher to run ahead of the publisher by a few hundred ordinary transactions. */
  private static final long PUBLISH_QUEUE_BYTES = 32L << 20;

  private final RelayConfig config;
  private final EventBuffer buffer;
  private final Fetcher fetcher;
  private final Publisher publisher;
  private final PublishQueue publishQueue;
  private final HttpApiServer http;
  private final PolicyReloader policies;
  private final PositionRecorder positions;
  private final SourcePosition resumeAfter;
  private final ScheduledExecutorService maintenance;
  private final LocalSource served;
  private final RelayListener listener;

  /**
   * Reads the position file and compiles the policies; throws {@link IllegalArgumentException} with
   * every policy error, {@link UncheckedIOException} when the position file cannot be read.
   */
  public Relay(RelayConfig config, Clock clock) {
    this(config, clock, config.positionFile() == null ? null : new PositionFile(Path.of(config.positionFile())));
  }

  /**
   * As above, with the position kept in {@code storage} (null: none) instead of the configured position file:
   * cluster mode keeps it in ZooKeeper.
   */
  public Relay(RelayConfig config, Clock clock, PositionStorage storage) {
    this(config, clock, storage, RelayListener.create(config, clock));
  }

  /**
   * As above, served through {@code listener}, which may be listening already (readers get 503 STARTING until
   * {@link #start}). The relay closes it.
   */
  public Relay(RelayConfig config, Clock clock, PositionStorage storage, RelayListener listener) {
    this.config = config;
    this.listener = listener;
    listener.phase("reading the position, compiling policies, allocating the event buffer");
    SourceConfig source = config.source();
    this.policies = loadPolicies(config);
    PositionState previous = readPositions(storage);
    StoredPosition resume = previous == null ? null : previous.resumeFrom(config.replay().toMillis());
    this.resumeAfter = resume == null ? null : resume.position();
    // Without a stored position the fetcher resolves its configured start (the binlog's end, …) only once it reaches
    // the source: the buffer's floor waits for it, so a reader older than the start gets 410, not a silent jump.
    this.buffer = resume == null ? config.buffer().newBufferAtFetcherStart() : config.buffer().newBuffer(resume.scn());
    this.positions = storage == null ? null
        : new PositionRecorder(storage, previous, config.replay(), clock, buffer::evictedThroughScn);
    SchemaRegistry schemas = listener.schemas; // the HTTP side answers schema requests from the same registry
    this.publisher = new Publisher(source.id(), buffer, schemas, policies.active(), positions, source.partitions(),
        source.routedByDefault());
    this.publishQueue = new PublishQueue(source.id(), publisher, PUBLISH_QUEUE_BYTES);
    this.fetcher = source.newFetcher(clock);
    PrometheusMeterRegistry metrics = listener.metrics;
    BufferMetrics.bind(buffer, source.id(), metrics);
    SourceMetrics.bind(source.id(), publisher, policies, metrics);
    this.served = new LocalSource(source, buffer, schemas, publisher, fetcher, policies.active(),
        config.snapshot().limits(), clock,
        previous == null ? 0 : previous.last().scn());
    SourceMetrics.bindHealth(served, publisher, clock, metrics);
    if (served.snapshots() != null) {
      served.snapshots().bindMetrics(metrics);
      served.snapshots().awaitProcessed(buffer::processedScn, served::halted);
    }
    this.http = listener.http;
    this.maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "gridway-relay-maintenance");
      t.setDaemon(true);
      return t;
    });
  }

  private static PolicyReloader loadPolicies(RelayConfig config) {
    try {
      return PolicyReloader.start(config.source().id(), config.policy(), PolicyLoader.create());
    } catch (PolicyException e) {
      throw new IllegalArgumentException("policy: " + e.errors().stream().map(PolicyError::toString).collect(Collectors.joining("; ")), e);
    }
  }

  private static PositionState readPositions(PositionStorage storage) {
    if (storage == null) {
      return null;
    }
    try {
      return storage.read();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  /**
   * Starts the HTTP API first (readers get 503 STARTING, then REFILLING, with a retry hint instead of a refused
   * connection), then the fetcher after the persisted position, if any; returns the bound address.
   */
  public InetSocketAddress start() throws InterruptedException {
    InetSocketAddress address = listener.listen();
    listener.phase("starting the fetcher");
    LOG.info("relay starting: source {} ({} partitions), buffer {} (max window {}), resuming after {}",
        config.source().id(), config.source().partitions(), config.buffer().capacity(), config.buffer().maxWindow(),
        resumeAfter == null ? "the configured start (its SCN once the fetcher reaches the source)"
            : resumeAfter + " (SCN " + Long.toUnsignedString(buffer.processedScn()) + ")");
    if (positions != null) {
      long every = Math.max(10, config.positionFlush().toMillis());
      maintenance.scheduleWithFixedDelay(positions::flush, every, every, TimeUnit.MILLISECONDS);
    }
    long reload = config.policy().reloadInterval().toMillis();
    if (reload > 0 && !policies.files().isEmpty()) {
      maintenance.scheduleWithFixedDelay(policies::check, reload, reload, TimeUnit.MILLISECONDS);
    }
    publishQueue.start();
    fetcher.start(resumeAfter, publishQueue);
    served.started();
    listener.source.attach(served);
    return address;
  }

  /** The buffer (for tests and the benchmark). */
  public EventBuffer buffer() {
    return buffer;
  }

  /** The publisher (for tests and the benchmark). */
  public Publisher publisher() {
    return publisher;
  }

  public int port() {
    return http.port();
  }

  /** Event requests in flight (long-polls and streams). */
  public int inFlightRequests() {
    return http.inFlight();
  }

  @Override
  public void close() {
    http.close();
    served.close();
    fetcher.close();
    publishQueue.close(); // publishes what the fetcher queued before it stopped
    maintenance.shutdown();
    try {
      if (!maintenance.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("maintenance thread did not stop within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (positions != null) {
      positions.flush(); // the fetcher is stopped: this is the last window stored
    }
    LOG.info("relay stopped");
  }
}
