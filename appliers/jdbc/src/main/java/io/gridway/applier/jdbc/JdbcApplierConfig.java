package io.gridway.applier.jdbc;

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
 * @param targetOutage how long a transaction keeps retrying while the target is unreachable before it fails
 * @param createDatabases whether a schema change creates a missing target database (PostgreSQL: schema); default true
 */
public record JdbcApplierConfig(
    String group, SqlDialect dialect, SchemaChangePolicy schemaChange, String origin, String deadLetterTable,
    Duration targetOutage, Boolean createDatabases) {

  public JdbcApplierConfig(String group, SqlDialect dialect, SchemaChangePolicy schemaChange, String origin,
      String deadLetterTable, Duration targetOutage) {
    this(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, null);
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

  public JdbcApplierConfig {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(dialect, "dialect");
    schemaChange = schemaChange == null ? SchemaChangePolicy.STOP : schemaChange;
    deadLetterTable = deadLetterTable == null ? "gridway_dead_letter" : deadLetterTable;
    targetOutage = targetOutage == null ? Duration.ofMinutes(5) : targetOutage;
    createDatabases = createDatabases == null || createDatabases;
  }

  public static JdbcApplierConfig of(String group, SqlDialect dialect) {
    return new JdbcApplierConfig(group, dialect, null, null, null, null);
  }

  public JdbcApplierConfig withSchemaChange(SchemaChangePolicy policy) {
    return new JdbcApplierConfig(group, dialect, policy, origin, deadLetterTable, targetOutage, createDatabases);
  }

  public JdbcApplierConfig withOrigin(String newOrigin) {
    return new JdbcApplierConfig(group, dialect, schemaChange, newOrigin, deadLetterTable, targetOutage, createDatabases);
  }

  public JdbcApplierConfig withTargetOutage(Duration outage) {
    return new JdbcApplierConfig(group, dialect, schemaChange, origin, deadLetterTable, outage, createDatabases);
  }

  public JdbcApplierConfig withCreateDatabases(boolean create) {
    return new JdbcApplierConfig(group, dialect, schemaChange, origin, deadLetterTable, targetOutage, create);
  }
}
