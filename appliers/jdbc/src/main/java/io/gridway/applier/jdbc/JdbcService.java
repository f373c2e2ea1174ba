package io.gridway.applier.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.consumer.BatchHandler;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.apply.Applier;
import io.gridway.core.checkpoint.CheckpointException;
import io.gridway.core.checkpoint.CheckpointStore;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.PolicyException;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The consumer service's JDBC wiring ({@code applier.type: jdbc}): the pool, the checkpoint store in the target and
 * the applier, from {@link JdbcTargetConfig}. {@link #close()} closes the pool.
 *
 * @param pool the connection pool
 * @param store the checkpoint store over {@code gridway_checkpoint}
 * @param applier the batch handler
 * @param policies the apply policy ({@code applier.jdbc.policy}), reloaded when its file changes, or null
 */
public record JdbcService(HikariDataSource pool, JdbcCheckpointStore store, JdbcApplier applier, ApplyPolicies policies)
    implements Applier {
  /** How often the apply policy's file is checked for a new version. */
  static final Duration POLICY_RELOAD_INTERVAL = Duration.ofSeconds(1);

  /**
   * @throws IllegalArgumentException naming the {@code applier.jdbc} key of a bad setting
   */
  public static JdbcService start(ConsumerConfig consumer, JdbcTargetConfig jdbc, MeterRegistry meters) {
    return start(consumer, jdbc, meters, Math.max(1, consumer.partitions().size()));
  }

  /**
   * @param sourcePartitions how many partitions the source has (TRUNCATE and schema changes wait for all of them)
   * @throws IllegalArgumentException naming the {@code applier.jdbc} key of a bad setting
   */
  public static JdbcService start(ConsumerConfig consumer, JdbcTargetConfig jdbc, MeterRegistry meters,
      int sourcePartitions) {
    SqlDialect dialect = SqlDialect.of(jdbc.dialect() != null ? jdbc.dialect() : dialectOf(jdbc.url()));
    ApplyPolicies policies = null;
    if (jdbc.policy() != null) {
      try {
        policies = ApplyPolicies.start(jdbc.policy(), POLICY_RELOAD_INTERVAL, meters);
      } catch (PolicyException e) {
        throw new IllegalArgumentException("applier.jdbc.policy: " + e.getMessage(), e);
      }
    }
    JdbcApplierConfig config = new JdbcApplierConfig(consumer.group(), dialect,
        jdbc.schemaChange() == null ? null : JdbcApplierConfig.SchemaChangePolicy.of(jdbc.schemaChange()),
        origin(jdbc, policies), null, null, jdbc.createDatabases(),
        jdbc.unfitValues() == null ? null : JdbcApplierConfig.unfitValues(jdbc.unfitValues()), sourcePartitions);
    // one connection per lane (partitions × K) plus the checkpoint writer's: fewer and lanes queue for connections
    int size = jdbc.poolSize() != null ? jdbc.poolSize() : consumer.partitions().size() * consumer.microBatch().count() + 2;
    HikariDataSource pool = JdbcTargets.pool(dialect, jdbc.url(), jdbc.user(), password(jdbc), size,
        jdbc.idleTransactionTimeout() == null ? JdbcTargets.DEFAULT_IDLE_TRANSACTION_TIMEOUT : jdbc.idleTransactionTimeout());
    JdbcCheckpointStore store;
    try {
      store = new JdbcCheckpointStore(pool, dialect, Clock.systemUTC());
    } catch (CheckpointException e) {
      pool.close();
      if (policies != null) {
        policies.close();
      }
      // the pool's own text ("gridway-jdbc-mariadb - Connection is not available") names neither the server nor why
      throw new CheckpointException(target(jdbc) + ": " + e.getMessage().replaceFirst(":.*", "") + ": " + rootCause(e), e);
    }
    Supplier<ApplyPolicy> rules = policies == null ? () -> null : policies;
    return new JdbcService(pool, store, JdbcApplier.reloading(pool, config, rules, store, meters, Clock.systemUTC()), policies);
  }

  /**
   * The origin id the applier tags target transactions with: {@code applier.jdbc.origin}, or else the apply policy's
   * {@code origin} (the grid this target belongs to), read at start.
   */
  private static String origin(JdbcTargetConfig jdbc, ApplyPolicies policies) {
    String fromPolicy = policies == null ? null : policies.current().origin();
    if (jdbc.origin() != null && fromPolicy != null && !jdbc.origin().equals(fromPolicy)) {
      policies.close();
      throw new IllegalArgumentException("applier.jdbc.origin: '" + jdbc.origin() + "' differs from origin '" + fromPolicy
          + "' of the policy " + jdbc.policy() + " (give one of them)");
    }
    return jdbc.origin() != null ? jdbc.origin() : fromPolicy;
  }

  /** "jdbc target host:port, database d, user u", read from the URL: what a connection error must name. */
  static String target(JdbcTargetConfig jdbc) {
    String rest = jdbc.url().substring("jdbc:".length()).replaceFirst("[?;].*", ""); // no parameters: they may hold secrets
    java.net.URI uri;
    try {
      uri = java.net.URI.create(rest);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null || uri.getHost() == null) { // not scheme://host:port/db (Phoenix: zk quorum): name the URL
      return "jdbc target " + rest + ", user " + jdbc.user();
    }
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    return "jdbc target " + uri.getHost() + ":" + (uri.getPort() < 0 ? "(default port)" : uri.getPort()) + ", database "
        + (path.isEmpty() ? "(default)" : path) + ", user " + jdbc.user();
  }

  /** The innermost cause's message: the driver's reason (Unknown database, refused, password) under the pool's. */
  private static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
  }

  static String dialectOf(String url) {
    String rest = url.substring("jdbc:".length());
    return rest.substring(0, Math.max(0, rest.indexOf(':')));
  }

  private static String password(JdbcTargetConfig jdbc) {
    if (jdbc.passwordFile() != null) {
      try {
        return Files.readString(jdbc.passwordFile(), StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new IllegalArgumentException("applier.jdbc.passwordFile: cannot read " + jdbc.passwordFile() + ": " + e.getMessage(), e);
      }
    }
    if (jdbc.passwordEnv() != null) {
      String value = System.getenv(jdbc.passwordEnv());
      if (value == null) {
        throw new IllegalArgumentException("applier.jdbc.passwordEnv: " + jdbc.passwordEnv() + " is not set");
      }
      return value;
    }
    return null;
  }

  @Override
  public BatchHandler handler() {
    return applier;
  }

  /** The target's {@code gridway_checkpoint}: checkpoints commit with the data. */
  @Override
  public Optional<CheckpointStore> checkpointStore() {
    return Optional.of(store);
  }

  @Override
  public void close() {
    applier.close();
    if (policies != null) {
      policies.close();
    }
    pool.close();
  }
}
