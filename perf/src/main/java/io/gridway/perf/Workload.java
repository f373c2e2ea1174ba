package io.gridway.perf;

/**
 * What {@code perf load} writes: {@code records} rows of about {@code recordSize} bytes spread evenly
 * over {@code tables} tables (transaction k of {@code txnSize} rows goes to table k % tables), inserted — and with {@code updates}
 * then updated in every non-key column — in transactions of {@code txnSize} rows by {@code writers}
 * concurrent connections.
 */
record Workload(long records, int recordSize, int tables, int txnSize, int writers, boolean updates) {
  /** Numeric columns (id, n1, n2, n3, amount, sent_us) take about this many bytes of a row image. */
  static final int NUMERIC_BYTES = 42;

  Workload {
    if (records < 1 || recordSize < NUMERIC_BYTES + 40 || tables < 1 || txnSize < 1 || writers < 1) {
      throw new IllegalArgumentException("records ≥ 1, record size ≥ " + (NUMERIC_BYTES + 40)
          + ", tables, txn size and writers ≥ 1; got " + this);
    }
  }

  /** Row events the load leaves in the binlog: one per insert, one more per update. */
  long events() {
    return records * (updates ? 2 : 1);
  }

  /** Records (rows) of table {@code t} (0-based). */
  long recordsOf(int table) {
    long transactions = (records + txnSize - 1) / txnSize;
    long total = 0;
    for (long k = table; k < transactions; k += tables) { // the Loader's layout: transaction k → table k % tables
      total += Math.min(records, (k + 1) * txnSize) - k * txnSize;
    }
    return total;
  }

  long eventsOf(int table) {
    return recordsOf(table) * (updates ? 2 : 1);
  }

  static String tableName(int table) {
    return "t" + (table + 1);
  }
}
