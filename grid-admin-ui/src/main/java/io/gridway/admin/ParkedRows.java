package io.gridway.admin;

import io.gridway.applier.jdbc.JdbcService;
import io.gridway.applier.jdbc.JdbcTargetConfig;
import io.gridway.applier.jdbc.ParkedChanges;
import io.gridway.consumer.service.ServiceConfig;
import io.gridway.core.config.ConfigLoader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * A group's parked (dead-letter) changes with the reason each was refused, read from its target through the JDBC
 * applier's {@link ParkedChanges} (what {@code gridway parked list} uses) with the group's own consumer file, named in
 * the admin configuration ({@link AdminSettings#consumerConfigs}). The file is read on every request, so a changed
 * target or password is picked up; the connection is opened for the request and closed after it. Only listing: the
 * rows' event images are not returned (they hold the data), and nothing is written. Thread-safe.
 */
final class ParkedRows {
  private final Map<String, Path> configs;

  ParkedRows(Map<String, Path> configs) {
    this.configs = configs;
  }

  /**
   * One parked change as the page shows it.
   *
   * @param scn unsigned decimal
   * @param key the source key, {@code col=value[,...]}
   */
  record Row(long id, int partition, String scn, String sourceTable, String targetTable, String op, String key, String reason,
      String parkedAt) {}

  /** @param truncated more rows are parked than {@code limit} */
  record Page(String group, List<Row> rows, boolean truncated) {}

  Page list(String group, int limit) {
    Path file = configs.get(group);
    if (file == null) {
      throw ApiException.conflict("the admin service has no consumer file for group " + group + ": name it under "
          + "consumerConfigs in admin.yaml to see its parked changes");
    }
    if (!Files.isReadable(file)) {
      throw ApiException.conflict("the consumer file of group " + group + ", " + file + ", is not readable by the admin service");
    }
    ServiceConfig service;
    try {
      service = ConfigLoader.load(file, ServiceConfig.class);
    } catch (RuntimeException e) {
      throw ApiException.conflict("the consumer file of group " + group + " is not valid: " + e.getMessage());
    }
    JdbcTargetConfig jdbc = service.applier() == null ? null : service.applier().settings(JdbcTargetConfig.class);
    if (jdbc == null) {
      throw ApiException.conflict("group " + group + " has no jdbc applier (" + file + "): parked changes are the jdbc applier's");
    }
    if (!group.equals(service.consumer().group())) {
      throw ApiException.conflict(file + " is the consumer file of group " + service.consumer().group() + ", not " + group);
    }
    try (JdbcService target = JdbcService.start(service.consumer(), jdbc, new SimpleMeterRegistry())) {
      List<ParkedChanges.Parked> parked = new ParkedChanges(target).list(ParkedChanges.Selection.all(), limit + 1);
      List<Row> rows = parked.stream().limit(limit).map(p -> new Row(p.id(), p.partition(), Long.toUnsignedString(p.scn()),
          p.sourceTable(), p.targetTable(), p.op(), p.key(), p.reason(), p.parkedAt().toString())).toList();
      return new Page(group, rows, parked.size() > limit);
    } catch (SQLException | RuntimeException e) {
      // the message names the target; the password is never part of it
      throw new ApiException(io.netty.handler.codec.http.HttpResponseStatus.SERVICE_UNAVAILABLE, "target-unavailable", null,
          "cannot read the parked changes of group " + group + " from its target: " + e.getMessage());
    }
  }
}
