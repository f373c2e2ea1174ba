package io.gridway.applier.jdbc;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The JDBC applier's settings (appliers/jdbc/JDBC.md).
 *
 * @param url the target's JDBC URL
 * @param user the user
 * @param passwordFile a file holding the password (trailing newline ignored), or null
 * @param passwordEnv an environment variable holding the password, or null (neither: no password)
 * @param dialect {@code mariadb}, {@code mysql}, {@code postgresql} or {@code phoenix}; default from the URL
 * @param poolSize connections (default: partitions × microBatch.count + 2, one per lane)
 * @param schemaChange {@code apply}, {@code ignore} or {@code stop} (default)
 * @param policy a policy file whose {@code route} and {@code conflict} rules apply, or null (identity, source-wins);
 *     checked every second and reloaded when it changes (from the next batch; a broken version is logged and ignored)
 * @param origin the grid's origin id to tag target transactions with; default the policy's {@code origin}, else none
 * @param idleTransactionTimeout how long the target lets one of this consumer's transactions sit idle before ending
 *     it (default 30s): bounds how long a frozen owner's row locks can stall its successor (MariaDB and PostgreSQL)
 * @param createDatabases whether a schema change creates a missing target database / PostgreSQL schema (default true)
 * @param unfitValues {@code park} (default), {@code map} or {@code fail}: a row change whose values the target cannot hold
 */
public record JdbcTargetConfig(@JsonProperty(required = true) String url, String user, Path passwordFile, String passwordEnv,
    String dialect, Integer poolSize, String schemaChange, Path policy, String origin, Duration idleTransactionTimeout,
    Boolean createDatabases, String unfitValues) {
  public JdbcTargetConfig(String url, String user, Path passwordFile, String passwordEnv, String dialect, Integer poolSize,
      String schemaChange, Path policy, String origin, Duration idleTransactionTimeout) {
    this(url, user, passwordFile, passwordEnv, dialect, poolSize, schemaChange, policy, origin, idleTransactionTimeout,
        null, null);
  }

  public JdbcTargetConfig(String url, String user, Path passwordFile, String passwordEnv, String dialect, Integer poolSize,
      String schemaChange, Path policy, String origin) {
    this(url, user, passwordFile, passwordEnv, dialect, poolSize, schemaChange, policy, origin, null);
  }

  public JdbcTargetConfig {
    if (url == null || !url.startsWith("jdbc:")) {
      throw new IllegalArgumentException("applier.jdbc.url: required, a jdbc: URL");
    }
    if (poolSize != null && poolSize < 1) {
      throw new IllegalArgumentException("applier.jdbc.poolSize: at least 1, not " + poolSize);
    }
    if (unfitValues != null) {
      try {
        JdbcApplierConfig.unfitValues(unfitValues);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("applier.jdbc." + e.getMessage(), e);
      }
    }
    if (idleTransactionTimeout != null && idleTransactionTimeout.toSeconds() < 1) {
      throw new IllegalArgumentException("applier.jdbc.idleTransactionTimeout: at least 1s, not " + idleTransactionTimeout);
    }
  }
}
