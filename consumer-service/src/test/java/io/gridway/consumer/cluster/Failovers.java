package io.gridway.consumer.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The moves both acceptance runs make on a {@link GroupRig} of three consumers, with their checks and timings. */
final class Failovers {
  static final Duration PATIENCE = Duration.ofSeconds(90);

  private Failovers() {}

  /** 4/4/4 over the three consumers, and every partition applying. */
  static Map<String, Integer> even(GroupRig rig) {
    Map<String, Integer> even = new TreeMap<>();
    for (String c : rig.consumerNames()) {
      even.put(c, GroupRig.PARTITIONS / rig.consumerNames().size());
    }
    return even;
  }

  /**
   * kill -9 {@code victim}: its partitions move to the other two (6/6) and apply again from the shared
   * checkpoints under newer generations; start it again: back to 4/4/4, its new partitions applying on it.
   */
  static void killAndReturn(GroupRig rig, String victim, Timings timings) throws Exception {
    killAndReturn(rig, victim, timings, () -> { });
  }

  /** What a test records right after a kill, before anyone can take over (a session takes seconds to expire). */
  interface AfterKill {
    void run() throws Exception;
  }

  /** {@link #killAndReturn(GroupRig, String, Timings)}, calling {@code afterKill} as soon as the victim is dead. */
  static void killAndReturn(GroupRig rig, String victim, Timings timings, AfterKill afterKill) throws Exception {
    Map<String, Integer> even = even(rig);
    Set<Integer> moved = rig.awaitSpread(even, PATIENCE).get(victim);
    assertThat(moved).as("%s leads a third", victim).hasSize(GroupRig.PARTITIONS / 3);
    Map<Integer, GroupRig.Progress> atKill = rig.progress();
    long killed = System.nanoTime();
    rig.consumer(victim).kill();
    afterKill.run();
    long applying = rig.awaitApplyingAgain(moved, atKill, PATIENCE);
    timings.move.add(Timings.millisSince(killed, applying));
    Map<String, Integer> survivors = new TreeMap<>(even);
    survivors.remove(victim);
    survivors.replaceAll((k, v) -> GroupRig.PARTITIONS / 2);
    rig.awaitSpread(survivors, PATIENCE);

    Map<Integer, GroupRig.Progress> beforeReturn = rig.progress();
    long launched = System.nanoTime();
    rig.startConsumer(victim);
    long joined = System.nanoTime();
    Set<Integer> back = rig.awaitSpread(even, PATIENCE).get(victim);
    long applyingAgain = rig.awaitApplyingAgain(back, beforeReturn, PATIENCE);
    timings.rebalance.add(Timings.millisSince(joined, applyingAgain));
    timings.rebalanceWithStart.add(Timings.millisSince(launched, applyingAgain));
  }
}
