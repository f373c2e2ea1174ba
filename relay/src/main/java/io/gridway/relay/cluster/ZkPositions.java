package io.gridway.relay.cluster;

import io.gridway.cluster.RelayPositionStore;
import io.gridway.core.event.Scn;
import io.gridway.relay.position.PositionJson;
import io.gridway.relay.position.PositionState;
import io.gridway.relay.position.PositionStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;

/**
 * A relay's position state in the cluster's property store ({@link RelayPositionStore}), under its source and
 * instance name, as the same JSON the position file holds: a replacement VM with the same instance name resumes
 * from it. Writes are ZooKeeper quorum writes; while ZooKeeper is unreachable they fail after the session timeout
 * and the recorder retries at its next flush.
 */
final class ZkPositions implements PositionStorage {
  private final RelayPositionStore store;
  private final String source;
  private final String instance;
  private final Clock clock;

  ZkPositions(RelayPositionStore store, String source, String instance, Clock clock) {
    this.store = store;
    this.source = source;
    this.instance = instance;
    this.clock = clock;
  }

  @Override
  public PositionState read() throws IOException {
    Optional<RelayPositionStore.RelayPosition> stored;
    try {
      stored = store.read(source, instance);
    } catch (RuntimeException e) {
      // ZooKeeper unreachable is not the operator's configuration (IOException: exit 2) but a peer down (exit 1)
      throw new IllegalStateException("cannot read " + describe() + ": " + e.getMessage(), e);
    }
    if (stored.isEmpty()) {
      return null;
    }
    try {
      return PositionJson.decode(stored.get().position().getBytes(StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException(describe() + " is not valid (" + e.getMessage() + "); delete the znode to start from the"
          + " source's configured start", e);
    }
  }

  @Override
  public void write(PositionState state) throws IOException {
    String json = new String(PositionJson.encode(state), StandardCharsets.UTF_8);
    try {
      store.write(new RelayPositionStore.RelayPosition(source, instance, json, new Scn(state.last().scn()), clock.instant()));
    } catch (RuntimeException e) {
      throw new IOException(e.toString(), e);
    }
  }

  @Override
  public String describe() {
    return "position of relay " + instance + " of source " + source + " in ZooKeeper";
  }
}
