package io.gridway.relay.policy;

import io.gridway.core.event.Transaction;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.FetchPolicy;
import io.gridway.policy.KeyRouting;
import io.gridway.policy.Policy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fetch policies in force, swapped whole by {@link PolicyReloader}. The publisher reads {@link
 * #current} once per transaction, so a new version applies from the next window on and never to half
 * a window. Thread-safe (one atomic reference to an immutable list).
 *
 * <p><b>Which version produced an event.</b> {@link #forWindow} remembers the SCN of the first window each set of
 * versions was applied to. SCNs increase strictly, so an event was filtered, transformed and partitioned by the
 * versions of the last entry of {@link #history()} whose {@code sinceScn} is at or below the event's SCN; the relay
 * shows the history in {@code /v1/sources} (the last {@value #HISTORY} changes).
 */
public final class ActivePolicies {
  static final int HISTORY = 16;

  private final AtomicReference<List<Policy>> current;
  private volatile String lastError;
  private List<Policy> lastApplied; // publisher thread only
  private final ArrayDeque<Map<String, Object>> history = new ArrayDeque<>(); // guarded by itself

  public ActivePolicies(List<Policy> initial) {
    this.current = new AtomicReference<>(List.copyOf(initial));
  }

  public static ActivePolicies none() {
    return new ActivePolicies(List.of());
  }

  public List<Policy> current() {
    return current.get();
  }

  /**
   * The policies for the window of this SCN: {@link #current}, recording the SCN when a new set is applied for the
   * first time. Called by the publisher thread only, once per window, in SCN order.
   */
  public List<Policy> forWindow(long scn) {
    List<Policy> now = current.get();
    if (now != lastApplied) {
      lastApplied = now;
      List<Map<String, Object>> versions = new ArrayList<>(now.size());
      for (Policy p : now) {
        Map<String, Object> version = new LinkedHashMap<>();
        version.put("name", p.name());
        version.put("version", p.version());
        versions.add(version);
      }
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("sinceScn", Long.toUnsignedString(scn));
      entry.put("policies", List.copyOf(versions));
      synchronized (history) {
        history.addLast(entry);
        if (history.size() > HISTORY) {
          history.removeFirst();
        }
      }
    }
    return now;
  }

  /** The versions applied from each SCN on, oldest first: {@code [{sinceScn, policies: [{name, version}]}]}. */
  public List<Map<String, Object>> history() {
    synchronized (history) {
      return List.copyOf(history);
    }
  }

  /**
   * The transaction as the policies in force publish it for a source of {@code partitions}
   * partitions (TRUNCATE and DDL go to each), or null when nothing is left (the caller still
   * advances the SCN and the position). Throws what the policy engine throws (a table the policy no
   * longer fits).
   */
  public static Transaction apply(List<Policy> policies, Transaction tx, int partitions) {
    Transaction out = tx;
    for (int i = 0, n = policies.size(); i < n && out != null; i++) {
      out = policies.get(i).fetch(partitions).apply(out);
    }
    return out;
  }

  /** How the policies, applied in order to a source of {@code partitions} partitions, route a table version's keys. */
  public static KeyRouting keyRouting(List<Policy> policies, TableSchema schema, int partitions) {
    List<FetchPolicy> chain = new ArrayList<>(policies.size());
    for (Policy policy : policies) {
      chain.add(policy.fetch(partitions));
    }
    return FetchPolicy.keyRouting(chain, schema);
  }

  void replace(List<Policy> next) {
    current.set(List.copyOf(next));
    lastError = null;
  }

  void rejected(String error) {
    lastError = error;
  }

  /** Why the newest version on disk was not taken, or null when the files in force are the newest. */
  public String lastError() {
    return lastError;
  }

  /** The version of the policy at this index of the configured files, or 0 when there is none. */
  public long version(int index) {
    List<Policy> policies = current.get();
    return index < policies.size() ? policies.get(index).version() : 0;
  }
}
