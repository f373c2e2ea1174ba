package io.gridway.policy;

/**
 * How an applier that creates its target tables lays one out: the {@code storage} rule of a table. Only appliers whose
 * target has such options read it (Phoenix: {@code SALT_BUCKETS} and {@code DEFAULT_COLUMN_FAMILY}); the JDBC applier
 * writes into tables that exist or that it creates with the source's DDL, and has no use for it.
 *
 * @param saltBuckets the number of salt buckets (1..256), or null for the applier's own setting
 * @param columnFamily the column family of the non-key columns, or null for the applier's own setting
 * @param rule the name of the rule
 */
public record TableStorage(Integer saltBuckets, String columnFamily, String rule) {}
