package io.gridway.applier.jdbc;

import io.gridway.policy.UnfitValueStrategy;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The JDBC applier's settings.
 *
 * @param group the consumer group (the checkpoint rows' key)
 * @param dialect the target's SQL dialect
 * @param schemaChange what a SCHEMA_CHANGE event does
 * @param origin the grid's origin id to tag each target transaction with ({@code gridway_origin}), or null for none
 * @param deadLetterTable the default table of parked changes ({@code gridway_dead_letter}); a conflict rule may name
 *     another
 * @param targetOutage not used any more: the consumer's lanes retry an unavailable target for {@code retry.outage}
 *     (one retry loop); kept so existing configurations still load
 * @param createDatabases whether a schema change creates a missing target database (PostgreSQL: schema); default true
 * @param unfitValues what a row change whose values the target cannot hold does: park (default), map or fail; a
 *     table's {@code unfit-values} rule in the apply policy overrides it
 * @param sourcePartitions how many partitions the source has; with more than one, TRUNCATE and schema changes wait at a
 *     barrier until every partition of the group has reached them ({@link SchemaBarrier}); default 1
 */
public record JdbcApplierConfig(
    String group, SqlDialect dialect, SchemaChangePolicy schemaChange, String origin, String deadLetterTable,
    Duration targetOutage, Boolean createDatabases, UnfitValueStrategy unfitValues, Integer sourcePartitions) {

  public JdbcApplierConfig(String group, SqlDialect dialect, SchemaChangePolicy schemaChange, String origin,
      String deadLetterTable, Duration targetOutage) {
    this(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, null, null, null);
  }

  public JdbcApplierConfig(String group, SqlDialect dialect, SchemaChangePolicy schemaChange, String origin,
      String deadLetterTable, Duration targetOutage, Boolean createDatabases, UnfitValueStrategy unfitValues) {
    this(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, createDatabases, unfitValues, null);
  }

  /** What the applier does with a SCHEMA_CHANGE event. */
  public enum SchemaChangePolicy {
    /** Bring the target table to the event's schema (create, drop, add and drop columns). */
    APPLY,
    /** Skip it. */
    IGNORE,
    /** Fail the batch, naming the SCN, the table and the statement. */
    STOP;

    public static SchemaChangePolicy of(String name) {
      try {
        return valueOf(name.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("schemaChange '" + name + "' is not one of apply, ignore, stop", e);
      }
    }
  }

  /** The applier's setting for a name ({@code applier.jdbc.unfitValues}). */
  public static UnfitValueStrategy unfitValues(String name) {
    UnfitValueStrategy strategy = UnfitValueStrategy.ofYaml(name);
    if (strategy == null) {
      throw new IllegalArgumentException("unfitValues '" + name + "' is not one of park, map, fail");
    }
    return strategy;
  }

  public JdbcApplierConfig {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(dialect, "dialect");
    schemaChange = schemaChange == null ? SchemaChangePolicy.STOP : schemaChange;
    deadLetterTable = deadLetterTable == null ? "gridway_dead_letter" : deadLetterTable;
    targetOutage = targetOutage == null ? Duration.ofMinutes(5) : targetOutage;
    createDatabases = createDatabases == null || createDatabases;
    unfitValues = unfitValues == null ? UnfitValueStrategy.PARK : unfitValues;
    sourcePartitions = sourcePartitions == null ? 1 : sourcePartitions;
    if (sourcePartitions < 1) {
      throw new IllegalArgumentException("sourcePartitions " + sourcePartitions + " < 1");
    }
  }

  public static JdbcApplierConfig of(String group, SqlDialect dialect) {
    return new JdbcApplierConfig(group, dialect, null, null, null, null);
  }

  public JdbcApplierConfig withSchemaChange(SchemaChangePolicy policy) {
    return new JdbcApplierConfig(group, dialect, policy, origin, deadLetterTable, targetOutage, createDatabases, unfitValues,
        sourcePartitions);
  }

  public JdbcApplierConfig withOrigin(String newOrigin) {
    return new JdbcApplierConfig(group, dialect, schemaChange, newOrigin, deadLetterTable, targetOutage, createDatabases, unfitValues,
        sourcePartitions);
  }

  public JdbcApplierConfig withTargetOutage(Duration outage) {
    return new JdbcApplierConfig(group, dialect, schemaChange, origin, deadLetterTable, outage, createDatabases, unfitValues,
        sourcePartitions);
  }

  public JdbcApplierConfig withCreateDatabases(boolean create) {
    return new JdbcApplierConfig(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, create, unfitValues,
        sourcePartitions);
  }

  public JdbcApplierConfig withSourcePartitions(int partitions) {
    return new JdbcApplierConfig(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, createDatabases, unfitValues,
        partitions);
  }

  public JdbcApplierConfig withUnfitValues(UnfitValueStrategy policy) {
    return new JdbcApplierConfig(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, createDatabases, policy,
        sourcePartitions);
  }
}
