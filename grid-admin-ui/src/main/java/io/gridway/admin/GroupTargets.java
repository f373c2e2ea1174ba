package io.gridway.admin;

import io.gridway.applier.jdbc.JdbcService;
import io.gridway.applier.jdbc.JdbcTargetConfig;
import io.gridway.consumer.service.ServiceConfig;
import io.gridway.core.config.ConfigLoader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

/**
 * A group's JDBC target, opened through the group's own consumer file as the admin configuration names it ({@link
 * AdminSettings#consumerConfigs}): what the parked changes and the snapshot progress are read from. The file is read
 * on every request, so a changed target or password is picked up; the connection is opened for the request and closed
 * after it. Every failure is an {@link ApiException} saying what is missing (409) or that the target does not answer
 * (503); the password is never part of a message. Thread-safe.
 */
final class GroupTargets {
  private final Map<String, Path> configs;

  GroupTargets(Map<String, Path> configs) {
    this.configs = configs;
  }

  /** Work on a group's target: its consumer file's settings and the opened target. */
  interface Work<T> {
    T run(ServiceConfig service, JdbcService target) throws SQLException;
  }

  /** Runs {@code work} on {@code group}'s target; {@code what} (for example "read the parked changes") is for errors. */
  <T> T with(String group, String what, Work<T> work) {
    Path file = configs.get(group);
    if (file == null) {
      throw ApiException.conflict("the admin service has no consumer file for group " + group + ": name it under "
          + "consumerConfigs in admin.yaml to " + what);
    }
    ServiceConfig service = load(group, file);
    JdbcTargetConfig jdbc = service.applier() == null ? null : service.applier().settings(JdbcTargetConfig.class);
    if (jdbc == null) {
      throw ApiException.conflict("group " + group + " has no jdbc applier (" + file + "): cannot " + what);
    }
    if (!group.equals(service.consumer().group())) {
      throw ApiException.conflict(file + " is the consumer file of group " + service.consumer().group() + ", not " + group);
    }
    try (JdbcService target = JdbcService.start(service.consumer(), jdbc, new SimpleMeterRegistry())) {
      return work.run(service, target);
    } catch (ApiException e) {
      throw e;
    } catch (SQLException | RuntimeException e) {
      // the message names the target; the password is never part of it
      throw new ApiException(io.netty.handler.codec.http.HttpResponseStatus.SERVICE_UNAVAILABLE, "target-unavailable", null,
          "cannot " + what + " of group " + group + " in its target: " + e.getMessage());
    }
  }

  /**
   * Whether {@code group}'s consumers load a snapshot after a reset to one ({@link ResetPlanner.SnapshotAbility}): they do
   * when their consumer file has {@code start: snapshot} or {@code onEvicted: snapshot} (either needs a checkpoint store
   * that keeps the cursor, which the consumer checks at start). Without a file it cannot be told: a warning.
   */
  String snapshotAbility(String group) {
    Path file = configs.get(group);
    if (file == null) {
      return "the admin service has no consumer file for group " + group + " (consumerConfigs in admin.yaml), so it cannot "
          + "check that its consumers load snapshots (start: snapshot or onEvicted: snapshot): one that does not skips to "
          + "the SCN and loads nothing";
    }
    ServiceConfig service = load(group, file);
    if (!service.consumer().startsWithSnapshot() && !service.consumer().reseedsOnEviction()) {
      throw ApiException.conflict("group " + group + "'s consumers load no snapshot (" + file + " has neither start: snapshot "
          + "nor onEvicted: snapshot): a reset to a snapshot would skip to the newest SCN and load nothing");
    }
    return "";
  }

  private static ServiceConfig load(String group, Path file) {
    if (!Files.isReadable(file)) {
      throw ApiException.conflict("the consumer file of group " + group + ", " + file + ", is not readable by the admin service");
    }
    try {
      return ConfigLoader.load(file, ServiceConfig.class);
    } catch (RuntimeException e) {
      throw ApiException.conflict("the consumer file of group " + group + " is not valid: " + e.getMessage());
    }
  }
}
