package io.gridway.testkit;

/**
 * The faults a {@link FaultProxy} applies now, per direction: added latency (ns), a bandwidth limit (bytes/s, 0 none)
 * and whether the direction is stalled (blackhole, half-open). Immutable.
 */
record Faults(long upLatencyNanos, long downLatencyNanos, long upBytesPerSecond, long downBytesPerSecond,
    boolean upStalled, boolean downStalled) {
  static final Faults NONE = new Faults(0, 0, 0, 0, false, false);

  Faults {
    if (upLatencyNanos < 0 || downLatencyNanos < 0) {
      throw new IllegalArgumentException("latency must be >= 0");
    }
  }

  long latencyNanos(FaultProxy.Direction d) {
    return d == FaultProxy.Direction.UPSTREAM ? upLatencyNanos : downLatencyNanos;
  }

  long bytesPerSecond(FaultProxy.Direction d) {
    return d == FaultProxy.Direction.UPSTREAM ? upBytesPerSecond : downBytesPerSecond;
  }

  boolean stalled(FaultProxy.Direction d) {
    return d == FaultProxy.Direction.UPSTREAM ? upStalled : downStalled;
  }

  Faults withUpLatency(long nanos) {
    return new Faults(nanos, downLatencyNanos, upBytesPerSecond, downBytesPerSecond, upStalled, downStalled);
  }

  Faults withDownLatency(long nanos) {
    return new Faults(upLatencyNanos, nanos, upBytesPerSecond, downBytesPerSecond, upStalled, downStalled);
  }

  Faults withUpBandwidth(long bps) {
    return new Faults(upLatencyNanos, downLatencyNanos, bps, downBytesPerSecond, upStalled, downStalled);
  }

  Faults withDownBandwidth(long bps) {
    return new Faults(upLatencyNanos, downLatencyNanos, upBytesPerSecond, bps, upStalled, downStalled);
  }

  Faults withUpStalled(boolean stalled) {
    return new Faults(upLatencyNanos, downLatencyNanos, upBytesPerSecond, downBytesPerSecond, stalled, downStalled);
  }

  Faults withDownStalled(boolean stalled) {
    return new Faults(upLatencyNanos, downLatencyNanos, upBytesPerSecond, downBytesPerSecond, upStalled, stalled);
  }
}
