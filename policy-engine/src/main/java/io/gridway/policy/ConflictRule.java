package io.gridway.policy;

import java.util.Objects;

/**
 * How an applier resolves conflicts on one table.
 *
 * @param strategy what wins
 * @param column for {@link ConflictStrategy#NEWEST_WINS}, the column that orders versions; null
 *     means the source commit time
 * @param deadLetter for {@link ConflictStrategy#PARK}, the {@code database.table} to park changes
 *     in; null means the applier's default
 * @param rule the {@code conflict} rule that chose it, or null for the default
 */
public record ConflictRule(ConflictStrategy strategy, String column, String deadLetter, String rule) {
  /** Without a rule the source wins: replication converges on the source's state. */
  public static final ConflictRule DEFAULT = new ConflictRule(ConflictStrategy.SOURCE_WINS, null, null, null);

  public ConflictRule {
    Objects.requireNonNull(strategy, "strategy");
  }
}
