package io.gridway.consumer.partition;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.Window;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import java.util.Objects;

/**
 * The built-in strategies. Their ordering guarantees:
 *
 * <table>
 *   <caption>What each strategy keeps in order</caption>
 *   <tr><th>strategy</th><th>kept in order</th><th>not kept</th></tr>
 *   <tr><td>{@link #keyHash()}</td><td>all changes of one row (same table and primary key)</td>
 *       <td>changes of different rows, even within one transaction; a transaction is not atomic on the target</td></tr>
 *   <tr><td>{@link #columnValue(String)}</td><td>all changes with the same value of the column (a tenant id):
 *       per-tenant order, and per-row order when a row's value of the column never changes</td>
 *       <td>changes of different values</td></tr>
 *   <tr><td>{@link #transactionRoundRobin()}</td><td>each transaction's events, together, in commit order</td>
 *       <td>order between transactions: two transactions touching the same row may apply in either order</td></tr>
 *   <tr><td>{@link #eventRoundRobin()}</td><td>nothing beyond the batch: events are spread evenly</td>
 *       <td>any order, even of one row's changes; only for targets where order does not matter (appends, counters)</td></tr>
 * </table>
 *
 * <p>"Round-robin" spreads by a mix of the SCN rather than by a counter, so that the assignment of a
 * window is the same in every run (see the {@link Partitioner} contract). TRUNCATE and SCHEMA_CHANGE
 * events act on a whole table, and an UPDATE that changes a primary key acts on two rows, which {@link
 * #keyHash()} may put on two lanes; with more than one lane the dispatcher applies windows holding any of
 * them on their own, after every earlier batch and before every later one, whatever the strategy — so a
 * key move never lets one lane overtake the old key's history or the new key's. (The relay already splits a
 * move between relay partitions into a DELETE and an INSERT, which key-hash puts on each key's own lane
 * without a barrier; see docs/partitioning.md.)
 */
public final class Partitioners {
  private Partitioners() {}

  /** By table and primary key (a keyless table: by the whole row image). */
  public static Partitioner keyHash() {
    return (window, k, out) -> {
      for (int i = 0; i < window.eventCount(); i++) {
        out[i] = k == 1 ? 0 : bucket(keyHash(window.event(i)), k);
      }
    };
  }

  /** By the value of one column (an event of a table without it: by key, as {@link #keyHash()}). */
  public static Partitioner columnValue(String column) {
    Objects.requireNonNull(column, "column");
    return (window, k, out) -> {
      for (int i = 0; i < window.eventCount(); i++) {
        if (k == 1) {
          out[i] = 0;
          continue;
        }
        ChangeEvent event = window.event(i);
        int index = event.schema().indexOf(column);
        Row row = event.after() != null ? event.after() : event.before();
        out[i] = bucket(index >= 0 && row != null ? Objects.hashCode(row.get(index)) : keyHash(event), k);
      }
    };
  }

  /** Whole transactions, spread over the micro-partitions by SCN. */
  public static Partitioner transactionRoundRobin() {
    return (window, k, out) -> {
      int target = bucket(Long.hashCode(window.scn().value()), k);
      for (int i = 0; i < window.eventCount(); i++) {
        out[i] = target;
      }
    };
  }

  /** Event by event, rotating from an SCN-derived start. */
  public static Partitioner eventRoundRobin() {
    return (window, k, out) -> {
      int start = bucket(Long.hashCode(window.scn().value()), k);
      for (int i = 0; i < window.eventCount(); i++) {
        out[i] = (start + i) % k;
      }
    };
  }

  /** The strategy a config names; {@code column} is the column of {@code COLUMN_VALUE}. */
  public static Partitioner named(ConsumerConfig.MicroPartitioner kind, String column) {
    return switch (kind) {
      case KEY_HASH -> keyHash();
      case COLUMN_VALUE -> columnValue(column);
      case TRANSACTION_ROUND_ROBIN -> transactionRoundRobin();
      case EVENT_ROUND_ROBIN -> eventRoundRobin();
    };
  }

  private static int keyHash(ChangeEvent event) {
    int table = event.schema().qualifiedName().hashCode();
    if (event.schema().hasPrimaryKey() && (event.after() != null || event.before() != null)) {
      return 31 * table + event.key().hashCode();
    }
    Row row = event.after() != null ? event.after() : event.before();
    return 31 * table + (row == null ? 0 : row.hashCode());
  }

  /** A well-mixed bucket: Java's hash codes of small integers and strings cluster. */
  static int bucket(int hash, int k) {
    int h = hash * 0x9E3779B9;
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    return Math.floorMod(h, k);
  }

  /** Used by tests of the contract: the assignment of a window, as a fresh array. */
  static int[] assignment(Partitioner partitioner, Window window, int k) {
    int[] out = new int[window.eventCount()];
    partitioner.assign(window, k, out);
    return out;
  }
}
