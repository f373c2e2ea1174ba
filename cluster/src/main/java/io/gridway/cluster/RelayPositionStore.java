package io.gridway.cluster;

import io.gridway.core.event.Scn;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.apache.helix.AccessOption;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.apache.zookeeper.data.Stat;

/**
 * Relay fetch positions in the cluster's property store,
 * {@code /<cluster>/PROPERTYSTORE/gridway/relay-positions/<source>/<relay>}, so that a replacement relay VM
 * with the same relay name resumes where the old one stopped. The position is the fetcher's own opaque
 * text (binlog file and offset, GTID set, trail RBA); the SCN comes with it. A relay writes its position
 * only after the window is in its buffer (DESIGN §4).
 *
 * <p>Thread-safe; its own ZooKeeper session: {@link #close()} it.
 */
public final class RelayPositionStore implements AutoCloseable {
  /** A relay's persisted fetch position. */
  public record RelayPosition(String source, String relay, String position, Scn scn, Instant updated) {
    public RelayPosition {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(relay, "relay");
      Objects.requireNonNull(position, "position");
      Objects.requireNonNull(scn, "scn");
      Objects.requireNonNull(updated, "updated");
    }
  }

  private final PropertyStore store;

  private RelayPositionStore(PropertyStore store) {
    this.store = store;
  }

  /**
   * Opens the store. While ZooKeeper is unreachable, a read or write gives up after the session timeout with an
   * exception, rather than blocking the relay (its maintenance thread, its shutdown) until ZooKeeper is back.
   */
  public static RelayPositionStore open(ZkConfig zk, String cluster) {
    return new RelayPositionStore(new PropertyStore(zk, cluster, zk.sessionTimeout()));
  }

  private String path(String source, String relay) {
    return store.path("relay-positions", Helix.requireName(source, "source"), Helix.requireName(relay, "relay"));
  }

  /** Stores the position durably (a quorum write); throws a runtime exception when it cannot. */
  public void write(RelayPosition p) {
    ZNRecord record = new ZNRecord(p.source() + "/" + p.relay());
    record.setSimpleField("position", p.position());
    record.setSimpleField("scn", Long.toUnsignedString(p.scn().value()));
    record.setSimpleField("updated", p.updated().toString());
    if (!store.accessor.set(path(p.source(), p.relay()), record, AccessOption.PERSISTENT)) {
      throw new IllegalStateException("cannot store the fetch position of relay " + p.relay() + " of " + p.source());
    }
  }

  public Optional<RelayPosition> read(String source, String relay) {
    ZNRecord r = store.accessor.get(path(source, relay), new Stat(), AccessOption.PERSISTENT);
    if (r == null) {
      return Optional.empty();
    }
    return Optional.of(new RelayPosition(source, relay, r.getSimpleField("position"),
        new Scn(Long.parseUnsignedLong(r.getSimpleField("scn"))), Instant.parse(r.getSimpleField("updated"))));
  }

  @Override
  public void close() {
    store.close();
  }
}
