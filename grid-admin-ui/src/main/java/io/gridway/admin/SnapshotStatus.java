package io.gridway.admin;

import io.gridway.core.checkpoint.Checkpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each partition of a group stands in its snapshot (docs/bootstrap.md §6), read from the cursor the partition's
 * leader stores with every checkpoint: the table being loaded and the key its next chunk starts after, or done. Consumers
 * publish the key the next chunk starts after nowhere else (their progress report in ZooKeeper has the table and the
 * counts: the group table's Snapshot column), so it is read from the group's JDBC target through {@link GroupTargets},
 * on request; a group whose checkpoints live elsewhere (ZooKeeper, Phoenix) shows its load through those reports only.
 * It moves with the checkpoints: after each chunk is applied. Thread-safe.
 */
final class SnapshotStatus {
  private final GroupTargets targets;

  SnapshotStatus(GroupTargets targets) {
    this.targets = targets;
  }

  /**
   * @param tables the group's {@code snapshot.tables} as its consumer file lists them now (empty: none configured)
   * @param loading how many partitions are loading a table now
   */
  record Group(String group, List<String> tables, int loading, List<Partition> partitions) {}

  /**
   * @param state {@code loading}, {@code done}, or {@code none} (no snapshot recorded on its checkpoint)
   * @param table the table being loaded ({@code db.table}), or {@code null}
   * @param tableNumber its place in {@code tables}, 1-based, or {@code null} when it is no longer listed (the partition
   *     then starts the snapshot over) or not loading
   * @param afterKey the primary key (a JSON array) after which the table's next chunk starts; {@code null} at its start
   * @param checkpointScn the checkpoint the cursor is stored with (unsigned decimal), or {@code null} when none
   */
  record Partition(int partition, String state, String table, Integer tableNumber, String afterKey, String checkpointScn) {

    static Partition of(int partition, String cursor, List<String> tables, Long scn) {
      String at = scn == null ? null : Long.toUnsignedString(scn);
      if (cursor == null) {
        return new Partition(partition, "none", null, null, null, at);
      }
      if (cursor.equals(Checkpoint.SNAPSHOT_DONE)) {
        return new Partition(partition, "done", null, null, null, at);
      }
      int nl = cursor.indexOf('\n');
      String table = nl < 0 ? cursor : cursor.substring(0, nl);
      String after = nl < 0 ? "" : cursor.substring(nl + 1);
      int index = tables.indexOf(table);
      return new Partition(partition, "loading", table, index < 0 ? null : index + 1, after.isEmpty() ? null : after, at);
    }
  }

  /** The progress of {@code group}'s partitions 0 … {@code partitions} − 1. */
  Group read(String group, int partitions) {
    return targets.with(group, "read the snapshot progress", (service, target) -> {
      List<String> tables = service.consumer().snapshot() == null ? List.of() : service.consumer().snapshot().tables();
      List<Partition> out = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        Checkpoint whole = target.store().read(group, p).stream().filter(Checkpoint::isWhole).findFirst().orElse(null);
        out.add(Partition.of(p, whole == null ? null : whole.snapshot(), tables, whole == null ? null : whole.scn().value()));
      }
      return new Group(group, tables, (int) out.stream().filter(x -> x.state().equals("loading")).count(), out);
    });
  }
}
