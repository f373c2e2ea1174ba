package io.gridway.relay.policy;

import io.gridway.core.event.Transaction;
import io.gridway.policy.Policy;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fetch policies in force, swapped whole by {@link PolicyReloader}. The publisher reads {@link
 * #current} once per transaction, so a new version applies from the next window on and never to half
 * a window. Thread-safe (one atomic reference to an immutable list).
 */
public final class ActivePolicies {
  private final AtomicReference<List<Policy>> current;
  private volatile String lastError;

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
   * The transaction as the policies in force publish it, or null when nothing is left (the caller
   * still advances the SCN and the position). Throws what the policy engine throws (a table the
   * policy no longer fits).
   */
  public static Transaction apply(List<Policy> policies, Transaction tx) {
    Transaction out = tx;
    for (int i = 0, n = policies.size(); i < n && out != null; i++) {
      out = policies.get(i).fetch().apply(out);
    }
    return out;
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
