package io.gridway.policy;

/**
 * What an applier needs for one source table: the target, the conflict strategy, what to do with values the target
 * cannot hold, and how to lay out a table it creates.
 *
 * @param target where its changes go
 * @param conflict how conflicts resolve
 * @param unfitValues the table's {@code unfit-values} rule, or null for the applier's own setting
 * @param storage the table's {@code storage} rule, or null for the applier's own settings
 */
public record ApplyRule(TableTarget target, ConflictRule conflict, UnfitValueStrategy unfitValues, TableStorage storage) {
  public ApplyRule(TableTarget target, ConflictRule conflict) {
    this(target, conflict, null, null);
  }
}
