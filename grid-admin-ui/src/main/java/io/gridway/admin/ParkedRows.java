package io.gridway.admin;

import io.gridway.applier.jdbc.ParkedChanges;
import java.sql.SQLException;
import java.util.List;

/**
 * A group's parked (dead-letter) changes with the reason each was refused, read from its target through the JDBC
 * applier's {@link ParkedChanges} (what {@code gridway parked list} uses) in the group's target ({@link GroupTargets}:
 * through its consumer file, opened for the request). Lists them (without
 * the rows' event images, which hold the data), replays or discards them — {@link ParkedChanges}'s own operations, as
 * {@code gridway parked replay|discard} runs them. Thread-safe.
 */
final class ParkedRows {
  private final GroupTargets targets;

  ParkedRows(GroupTargets targets) {
    this.targets = targets;
  }

  /**
   * One parked change as the page shows it.
   *
   * @param scn unsigned decimal
   * @param key the source key, {@code col=value[,...]}
   */
  record Row(long id, int partition, String scn, String sourceTable, String targetTable, String op, String key, String reason,
      String parkedAt) {}

  /** @param truncated more rows are parked than {@code limit} */
  record Page(String group, List<Row> rows, boolean truncated) {}

  /**
   * What a replay did.
   *
   * @param selected how many parked changes the selection held before
   * @param applied how many were applied (and removed)
   * @param stillParked the keys left parked, each with the reason its first change was refused again
   */
  record Replayed(String group, int selected, int applied, List<String> stillParked) {}

  /** What a discard did. */
  record Discarded(String group, int discarded) {}

  Page list(String group, int limit) {
    return withTarget(group, "read", parked -> {
      List<ParkedChanges.Parked> rows = parked.list(ParkedChanges.Selection.all(), limit + 1);
      return new Page(group, rows.stream().limit(limit).map(ParkedRows::row).toList(), rows.size() > limit);
    });
  }

  /**
   * Applies the selected parked changes again through the JDBC applier as the group's consumer file configures it now
   * ({@link ParkedChanges#replay}, what {@code gridway parked replay} does).
   *
   * @throws ApiException 404 when nothing parked is selected
   */
  Replayed replay(String group, ParkedChanges.Selection selection) {
    return withTarget(group, "replay", parked -> {
      int selected = requireSome(group, selection, parked);
      ParkedChanges.Replayed r = parked.replay(selection);
      return new Replayed(group, selected, r.applied(), r.stillParked());
    });
  }

  /** Removes the selected parked changes without applying them ({@link ParkedChanges#discard}). */
  Discarded discard(String group, ParkedChanges.Selection selection) {
    return withTarget(group, "discard", parked -> {
      requireSome(group, selection, parked);
      return new Discarded(group, parked.discard(selection));
    });
  }

  private static int requireSome(String group, ParkedChanges.Selection selection, ParkedChanges parked) throws SQLException {
    int n = parked.list(selection).size();
    if (n == 0) {
      throw ApiException.notFound("group " + group + " has no parked change" + (selection.table() == null ? ""
          : " of table " + selection.table() + (selection.key() == null ? "" : " with key " + selection.key())));
    }
    return n;
  }

  private static Row row(ParkedChanges.Parked p) {
    return new Row(p.id(), p.partition(), Long.toUnsignedString(p.scn()), p.sourceTable(), p.targetTable(), p.op(), p.key(),
        p.reason(), p.parkedAt().toString());
  }

  /** Work on a group's parked changes. */
  private interface Work<T> {
    T run(ParkedChanges parked) throws SQLException;
  }

  private <T> T withTarget(String group, String what, Work<T> work) {
    return targets.with(group, what + " the parked changes", (service, target) -> work.run(new ParkedChanges(target)));
  }
}
