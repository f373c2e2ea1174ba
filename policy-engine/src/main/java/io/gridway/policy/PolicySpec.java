package io.gridway.policy;

import java.util.List;

/**
 * A policy file as written, validated for shape but not yet compiled: what {@link SpecReader}
 * produces and {@link PolicyCompiler} consumes. Immutable.
 *
 * @param file the file name used in messages
 * @param name the policy's name
 * @param version its version, at least 1
 * @param description free text, or ""
 * @param origin this grid's origin id, or null when the policy does no origin filtering
 * @param include table patterns to capture; empty means every table
 * @param exclude table patterns never to capture, applied after {@code include}
 * @param hashKey where the {@code hash} rules' key comes from, or null
 * @param defaultPartition the partition of events that no partition rule matches
 * @param rules the rules in file order
 */
record PolicySpec(
    String file,
    String name,
    long version,
    String description,
    String origin,
    List<TablePattern> include,
    List<TablePattern> exclude,
    HashKeySpec hashKey,
    int defaultPartition,
    List<RuleSpec> rules) {

  PolicySpec {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    rules = List.copyOf(rules);
  }

  /**
   * Where the HMAC key of {@code hash} rules is read from: an environment variable or a file, never
   * the policy text.
   */
  record HashKeySpec(String env, String file, Loc loc) {}
}
