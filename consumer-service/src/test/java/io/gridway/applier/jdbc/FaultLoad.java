package io.gridway.applier.jdbc;

/**
 * The source writer of a fault scenario, on {@link KillWorkload}'s tables: started once, allowed a number of
 * transactions at a time, finished (every allowed transaction written, failures rethrown) before the verifier runs.
 */
interface FaultLoad extends AutoCloseable {
  void start();

  /** Lets the writer write {@code more} transactions (it waits when it has written all it may). */
  void allow(long more);

  /** Writes every allowed transaction, then stops; rethrows the writer's failure. */
  void finish() throws Exception;

  /** Transactions committed so far. */
  long transactions();

  @Override
  void close();

  /** {@link KillWorkload} (the richer workload, which ends at the first lost connection). */
  static FaultLoad of(KillWorkload workload) {
    return new FaultLoad() {
      @Override
      public void start() {
        workload.start();
      }

      @Override
      public void allow(long more) {
        workload.allow(more);
      }

      @Override
      public void finish() throws Exception {
        workload.finish();
      }

      @Override
      public long transactions() {
        return workload.transactions();
      }

      @Override
      public void close() {
        workload.close();
      }
    };
  }
}
