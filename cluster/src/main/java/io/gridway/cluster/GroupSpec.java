package io.gridway.cluster;

/**
 * A consumer group as a Helix resource {@code group.<name>}: {@code partitions} partitions (the
 * subscription's), each with one LEADER and {@code replicas - 1} warm STANDBY instances, FULL_AUTO.
 *
 * @param name the group's name: 1-100 of {@code [A-Za-z0-9_.-]}
 * @param partitions the number of partitions, 1..65536; fixed for the group's life (checkpoints are per partition)
 * @param replicas leader plus standbys per partition, at least 1; 2 gives the fastest takeover
 */
public record GroupSpec(String name, int partitions, int replicas) {
  public GroupSpec {
    Helix.requireName(name, "group");
    if (partitions < 1 || partitions > 0x10000) {
      throw new IllegalArgumentException("group " + name + ": partitions " + partitions + " out of range 1..65536");
    }
    if (replicas < 1) {
      throw new IllegalArgumentException("group " + name + ": replicas " + replicas + " below 1");
    }
  }
}
