package io.gridway.policy;

/**
 * Everything a fetch policy does to events of one table version, compiled once: selection and
 * predicates, the column transform (null when there is none) and the partitioner. Immutable and
 * thread-safe.
 *
 * @param transformRule the name of the {@code columns} rule, or null
 * @param partitionRule the name of the {@code partition} rule, or null for the policy's default
 */
record TablePlan(Selection selection, ColumnTransform transform, String transformRule, Partitioner partitioner, String partitionRule) {}
