package io.gridway.relay.http;

import io.gridway.policy.PolicyError;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import io.gridway.policy.RowFilter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Compiles {@code where=} subscription predicates (CEL, the policy engine's {@code where} rules) and
 * caches them by expression text, least recently used first out, so that many readers with the same
 * subscription compile it once. Each expression becomes a one-rule policy; its {@link RowFilter}
 * then compiles per table version on first sight, inside the policy engine.
 *
 * <p>Thread-safe (one lock around the small map; compiling happens outside it).
 */
final class Predicates {
  static final int MAX_EXPRESSION_CHARS = 2048;

  private final PolicyLoader loader = PolicyLoader.create();
  private final int capacity;
  private final Map<String, RowFilter> cache;

  Predicates(int capacity) {
    this.capacity = capacity;
    this.cache = new LinkedHashMap<>(16, 0.75f, true);
  }

  /** The compiled predicate, or a 400 {@link Problem.Failure} naming what is wrong with it. */
  RowFilter compile(String expression) {
    synchronized (cache) {
      RowFilter known = cache.get(expression);
      if (known != null) {
        return known;
      }
    }
    if (expression.isBlank()) {
      throw new Problem.Failure(Problem.badParameter("where", "is empty (omit it to receive every row)"));
    }
    if (expression.length() > MAX_EXPRESSION_CHARS) {
      throw new Problem.Failure(Problem.badParameter("where", "is longer than " + MAX_EXPRESSION_CHARS + " characters"));
    }
    RowFilter filter;
    try {
      filter = loader.parse("where", policyText(expression)).subscription();
    } catch (PolicyException e) {
      String reasons = e.errors().stream().map(PolicyError::reason).collect(Collectors.joining("; "));
      throw new Problem.Failure(Problem.badParameter("where", "is not a valid predicate: " + EventsQuery.printable(reasons)));
    }
    synchronized (cache) {
      cache.put(expression, filter);
      if (cache.size() > capacity) {
        cache.remove(cache.keySet().iterator().next());
      }
    }
    return filter;
  }

  /** A one-rule policy; the expression goes in a literal block, so no YAML quoting can break out of it. */
  private static String policyText(String expression) {
    StringBuilder text = new StringBuilder("name: subscription\nversion: 1\nrules:\n  - name: where\n    where: |-\n");
    for (String line : expression.split("\\R", -1)) {
      text.append("      ").append(line).append('\n');
    }
    return text.toString();
  }
}
