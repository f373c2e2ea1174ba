package io.gridway.consumer.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.ServiceConfig;
import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;

/**
 * The consumer service's JDBC wiring ({@code applier.type: jdbc}): the pool, the checkpoint store in the target and
 * the applier, from {@link ServiceConfig.Jdbc}. {@link #close()} closes the pool.
 *
 * @param pool the connection pool
 * @param store the checkpoint store over {@code gridway_checkpoint}
 * @param applier the batch handler
 */
public record JdbcService(HikariDataSource pool, JdbcCheckpointStore store, JdbcApplier applier) implements AutoCloseable {

  /**
   * @throws IllegalArgumentException naming the {@code applier.jdbc} key of a bad setting
   */
  public static JdbcService start(ConsumerConfig consumer, ServiceConfig.Jdbc jdbc, MeterRegistry meters) {
    SqlDialect dialect = SqlDialect.of(jdbc.dialect() != null ? jdbc.dialect() : dialectOf(jdbc.url()));
    ApplyPolicy policy = null;
    if (jdbc.policy() != null) {
      try {
        policy = PolicyLoader.create().load(jdbc.policy()).apply();
      } catch (PolicyException e) {
        throw new IllegalArgumentException("applier.jdbc.policy: " + e.getMessage(), e);
      }
    }
    JdbcApplierConfig config = new JdbcApplierConfig(consumer.group(), dialect,
        jdbc.schemaChange() == null ? null : JdbcApplierConfig.SchemaChangePolicy.of(jdbc.schemaChange()), jdbc.origin(),
        null, null);
    // one connection per lane (partitions × K) plus the checkpoint writer's: fewer and lanes queue for connections
    int size = jdbc.poolSize() != null ? jdbc.poolSize() : consumer.partitions().size() * consumer.microBatch().count() + 2;
    HikariDataSource pool = JdbcTargets.pool(dialect, jdbc.url(), jdbc.user(), password(jdbc), size);
    JdbcCheckpointStore store = new JdbcCheckpointStore(pool, dialect, Clock.systemUTC());
    return new JdbcService(pool, store, new JdbcApplier(pool, config, policy, store, meters, Clock.systemUTC()));
  }

  static String dialectOf(String url) {
    String rest = url.substring("jdbc:".length());
    return rest.substring(0, Math.max(0, rest.indexOf(':')));
  }

  private static String password(ServiceConfig.Jdbc jdbc) {
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
  public void close() {
    pool.close();
  }
}
