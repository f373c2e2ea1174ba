package io.gridway.policy;

/**
 * What an applier needs for one source table: the target, the conflict strategy and what to do with values the
 * target cannot hold.
 *
 * @param target where its changes go
 * @param conflict how conflicts resolve
 * @param unfitValues the table's {@code unfit-values} rule, or null for the applier's own setting
 */
public record ApplyRule(TableTarget target, ConflictRule conflict, UnfitValueStrategy unfitValues) {
  public ApplyRule(TableTarget target, ConflictRule conflict) {
    this(target, conflict, null);
  }
}
