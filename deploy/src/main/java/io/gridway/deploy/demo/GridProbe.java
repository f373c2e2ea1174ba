package io.gridway.deploy.demo;

import io.gridway.consumer.PartitionStatus;
import io.gridway.deploy.demo.DemoTopology.DemoConsumer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the running grid once: what the workload wrote, what the consumers applied (their {@code
 * gridway.consumer.events} counters), their lag ({@code gridway.consumer.lag.ms}: now minus the source commit time
 * of the newest applied transaction, worst partition), the relay's newest SCN, the applied SCNs (partition
 * checkpoints) and which consumer runs which partitions. The binlog stamps each commit to the second, so the lag
 * figure reads up to 1000 ms above the true delay (about 500 ms on average); the SCN columns show the real distance.
 *
 * <p>A partition's meters go when it moves to another consumer; applied counts are therefore summed from each
 * (consumer, partition) counter's increments, so a move loses nothing. Not thread-safe: one sampling thread.
 */
final class GridProbe {
  /** No lag figure yet (nothing applied). */
  static final long NO_LAG = -1;

  private final DemoTopology topology;
  private final Workload workload;
  private final Map<String, Double> lastCounts = new HashMap<>();
  private long applied;

  /**
   * One look at the grid.
   *
   * @param elapsedMillis since the workload started
   * @param transactions transactions the workload committed
   * @param rowChanges rows they changed
   * @param appliedEvents row changes the consumers applied
   * @param lagMillis the worst partition's lag, or {@link #NO_LAG}
   * @param heldEvents events received by the consumers and not yet applied
   * @param relayScn the newest SCN in the relay's buffer
   * @param appliedScns each running partition's checkpoint SCN (its newest applied transaction)
   * @param partitions each consumer's running partitions
   */
  record Sample(long elapsedMillis, long transactions, long rowChanges, long appliedEvents, long lagMillis,
      long heldEvents, long relayScn, Map<Integer, Long> appliedScns, Map<String, List<Integer>> partitions) {}

  GridProbe(DemoTopology topology, Workload workload) {
    this.topology = topology;
    this.workload = workload;
  }

  Sample sample(long elapsedMillis) {
    long lag = NO_LAG;
    long held = 0;
    Map<Integer, Long> scns = new java.util.TreeMap<>();
    Map<String, List<Integer>> partitions = new LinkedHashMap<>();
    for (DemoConsumer c : topology.consumers()) {
      // held before applied: a commit lowers held, then raises applied; the other order could see neither
      for (Gauge g : c.meters().find("gridway.consumer.lag.events").gauges()) {
        held += (long) g.value();
      }
      for (Counter counter : c.meters().find("gridway.consumer.events").counters()) {
        String key = c.name() + "/" + counter.getId().getTag("partition");
        double now = counter.count();
        double before = lastCounts.getOrDefault(key, 0.0);
        applied += (long) (now >= before ? now - before : now); // a new counter after a move starts at 0
        lastCounts.put(key, now);
      }
      for (Gauge g : c.meters().find("gridway.consumer.lag.ms").gauges()) {
        lag = Math.max(lag, (long) g.value());
      }
      List<Integer> running = new ArrayList<>();
      for (PartitionStatus s : c.service().statuses().values()) {
        if (s.isHealthy()) {
          running.add(s.partition());
          if (s.checkpoint() != null) {
            scns.put(s.partition(), s.checkpoint().value());
          }
        }
      }
      running.sort(null);
      partitions.put(c.name(), running);
    }
    return new Sample(elapsedMillis, workload.transactions(), workload.rowChanges(), applied, lag, held,
        topology.relay().buffer().newestScn(), scns, partitions);
  }
}
