package io.gridway.admin;

import java.util.ArrayList;
import java.util.List;

/**
 * What a checkpoint reset would change, for the dry run the operator reviews before confirming: from which SCN to
 * which, whether that replays or skips and over what SCN distance, and what the relays hold. SCNs are unsigned 64-bit
 * values, shown as decimal strings (JavaScript numbers cannot hold them).
 *
 * @param currentScn the partition's checkpoint now (ZooKeeper's, or for an exactly-once group what its leader last
 *     reported committed), or {@code null} when it never checkpointed
 * @param targetScn where it would restart (just after this SCN)
 * @param change {@code replay} (back), {@code skip} (forward), {@code none}, or {@code unknown} without a current SCN
 * @param scnDistance how far, in SCN distance, or {@code null}; within one binlog file it is bytes of the log
 * @param relayOldestScn the oldest SCN the relays of the source still hold, or {@code null} (no relay answered)
 * @param relayNewestScn the newest SCN they have, or {@code null}
 * @param time for a reset to a time, the commit it found, else {@code null}
 * @param snapshot the partition loads its tables again from a fresh snapshot, its stream resuming after {@code
 *     targetScn} (a reset to a snapshot)
 * @param warnings what the operator should know before confirming
 * @param version the partition's reset state this plan was made from; a confirmation must carry it (If-Match)
 */
public record ResetPlan(String group, int partition, boolean paused, String currentScn, String targetScn, String change,
    String scnDistance, String relayOldestScn, String relayNewestScn, TimeMatch time, boolean snapshot,
    PendingReset pending, List<String> warnings, String version) {

  /** A reset asked for and not carried out yet ({@code snapshot}: to a snapshot, restarting the stream after {@code scn}). */
  public record PendingReset(String scn, String user, long requestedMillis, boolean snapshot) {}

  /**
   * How a reset to a time found its SCN ({@link CommitTimes}).
   *
   * @param asked the time asked for
   * @param firstScn the first window committed at or after it; the partition restarts with it
   * @param firstCommitTime that window's source commit time
   */
  public record TimeMatch(String asked, String firstScn, String firstCommitTime) {}

  /** The plan as {@code gridway cluster group reset} prints it: the dry run's rows, then its warnings. */
  public String text() {
    StringBuilder b = new StringBuilder();
    b.append("group ").append(group).append(" partition ").append(partition).append(paused ? " (paused)" : " (running)").append('\n');
    if (time != null) {
      b.append("  time asked      ").append(time.asked()).append('\n');
      b.append("  first commit    SCN ").append(time.firstScn()).append(" at ").append(time.firstCommitTime()).append('\n');
    }
    b.append("  from SCN        ").append(currentScn == null ? "none" : currentScn).append('\n');
    b.append("  to SCN          ").append(targetScn).append(" (restarts just after it)").append('\n');
    if (snapshot) {
      b.append("  snapshot        every table loaded again from a fresh snapshot").append('\n');
    }
    b.append("  change          ").append(change).append(scnDistance == null ? "" : ", SCN distance " + scnDistance).append('\n');
    b.append("  relays hold     ").append(relayOldestScn == null ? "unknown" : relayOldestScn + " … " + relayNewestScn).append('\n');
    if (pending != null) {
      b.append("  waiting reset   ").append(pending.scn()).append(pending.snapshot() ? " with a snapshot" : "")
          .append(" (asked by ").append(pending.user()).append(")\n");
    }
    for (String w : warnings) {
      b.append("  warning: ").append(w).append('\n');
    }
    b.append("  version         ").append(version).append('\n');
    return b.toString();
  }

  /**
   * @param snapshot null for a reset without a snapshot; for one to a snapshot, what is known of the group's consumers'
   *     ability to load it: empty when their consumer file says they can, else a warning
   */
  static ResetPlan of(String group, int partition, boolean paused, Long current, long target, Long relayOldest,
      Long relayNewest, TimeMatch time, String snapshot, PendingReset pending, String version) {
    List<String> warnings = new ArrayList<>();
    if (snapshot != null) {
      warnings.add("every table of the group's snapshot is loaded again from its first chunk, while changes are applied from "
          + "SCN " + Long.toUnsignedString(target) + " on: each row ends as the source has it; rows the source deleted stay "
          + "on the target unless the relay's chunks cover whole key ranges (docs/bootstrap.md §5.3)");
      if (!snapshot.isEmpty()) {
        warnings.add(snapshot);
      }
    }
    String change;
    String distance = null;
    if (current == null) {
      change = "unknown";
      warnings.add("the partition has no checkpoint yet: it will start just after SCN " + Long.toUnsignedString(target));
    } else {
      int c = Long.compareUnsigned(target, current);
      change = c < 0 ? "replay" : c > 0 ? "skip" : "none";
      distance = Long.toUnsignedString(c < 0 ? current - target : target - current);
      if (c < 0) {
        warnings.add("changes after SCN " + Long.toUnsignedString(target) + " up to " + Long.toUnsignedString(current)
            + " are applied again: at-least-once targets may see them twice");
      } else if (c > 0 && snapshot == null) {
        warnings.add("changes after SCN " + Long.toUnsignedString(current) + " up to " + Long.toUnsignedString(target)
            + " are never applied to this group's target");
      }
    }
    if (relayOldest == null) {
      warnings.add("no relay of the source answered: what they hold is unknown");
    } else {
      if (Long.compareUnsigned(target, relayOldest) < 0 && target != 0) {
        warnings.add("the relays hold SCNs from " + Long.toUnsignedString(relayOldest) + " on: the partition would stop with "
            + "'SCN evicted' (410) until it is bootstrapped");
      }
      if (relayNewest != null && Long.compareUnsigned(target, relayNewest) > 0) {
        warnings.add("beyond the newest SCN the relays have (" + Long.toUnsignedString(relayNewest)
            + "): the partition skips everything up to it as it arrives");
      }
    }
    if (!paused) {
      warnings.add("the partition is running: pause it (or its group) to confirm the reset");
    }
    if (pending != null) {
      warnings.add("replaces the reset to " + pending.scn() + (pending.snapshot() ? " with a snapshot" : "") + " that "
          + pending.user() + " asked for");
    }
    return new ResetPlan(group, partition, paused, current == null ? null : Long.toUnsignedString(current),
        Long.toUnsignedString(target), change, distance, relayOldest == null ? null : Long.toUnsignedString(relayOldest),
        relayNewest == null ? null : Long.toUnsignedString(relayNewest), time, snapshot != null, pending, List.copyOf(warnings),
        version);
  }
}
