package io.gridway.policy;

/**
 * What an applier needs for one source table: the target and the conflict strategy.
 *
 * @param target where its changes go
 * @param conflict how conflicts resolve
 */
public record ApplyRule(TableTarget target, ConflictRule conflict) {}
