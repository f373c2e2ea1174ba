package io.gridway.perf;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The wait of stage 2, end-to-end and latency runs: polls the consumers (their output) and the relays
 * feeding them (their API) every 50 ms until every consumer has printed its RESULT, or one of them can
 * no longer complete — a consumer FAILED, fell off its relay's buffer or exited; a relay exited or evicted
 * — or the time is up. Stateless.
 */
final class FleetWait {
  private static final long POLL_MILLIS = 50;

  private FleetWait() {}

  /** @return null when every consumer completed, else the reason the run is invalid */
  static String await(ConsumerFleet consumers, RelayFleet relays, long expected, Duration timeout, Progress progress)
      throws IOException, InterruptedException {
    return await(consumers, relays, expected, timeout, progress, new ArrayList<>());
  }

  /**
   * As above, and adds the relays' CPU seconds at every poll to {@code relayCpu} (time in epoch µs × 1000,
   * comparable with the consumers' samples) for the steady window.
   */
  static String await(ConsumerFleet consumers, RelayFleet relays, long expected, Duration timeout, Progress progress,
      List<SteadyWindow.Sample> relayCpu) throws IOException, InterruptedException {
    return await(consumers, relays, expected, timeout, progress, relayCpu, null, new ArrayList<>());
  }

  /**
   * As above, and adds the target server's CPU seconds ({@code target}; null: none) to {@code targetCpu} every
   * {@value #TARGET_EVERY}th poll: finding a server's processes walks /proc, too dear for every poll on two cores.
   */
  static String await(ConsumerFleet consumers, RelayFleet relays, long expected, Duration timeout, Progress progress,
      List<SteadyWindow.Sample> relayCpu, E2eTarget target, List<SteadyWindow.Sample> targetCpu)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int polls = 0;
    while (!consumers.done()) {
      relayCpu.add(new SteadyWindow.Sample(Micros.now() * 1000, 0, relays.cpuNow()));
      if (target != null && polls++ % TARGET_EVERY == 0) {
        sampleTarget(target, targetCpu);
      }
      String problem = consumers.problem();
      if (problem == null) {
        problem = relays.problem();
      }
      if (problem != null) {
        return problem;
      }
      progress.set(consumers.events());
      if (System.nanoTime() > deadline) {
        return "timed out after " + timeout.toSeconds() + " s: the consumers applied " + consumers.events() + " of "
            + expected + " events";
      }
      Thread.sleep(POLL_MILLIS); // a harness polling processes, not a test waiting
    }
    relayCpu.add(new SteadyWindow.Sample(Micros.now() * 1000, 0, relays.cpuNow()));
    if (target != null) {
      sampleTarget(target, targetCpu);
    }
    progress.set(consumers.events());
    return null;
  }

  private static final int TARGET_EVERY = 10;

  private static void sampleTarget(E2eTarget target, List<SteadyWindow.Sample> targetCpu) {
    double seconds = target.serverCpuSeconds();
    if (seconds >= 0) {
      targetCpu.add(new SteadyWindow.Sample(Micros.now() * 1000, 0, seconds));
    }
  }

  /** Generous: a run slower than 1,000 events/s (and over 3 minutes) is broken, not slow. */
  static Duration timeoutFor(long events) {
    return Duration.ofSeconds(Math.max(180, events / 1_000));
  }
}
