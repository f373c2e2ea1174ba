package io.gridway.applier.jdbc;

import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.consumer.apply.ApplierProvider;

/** {@code applier.type: jdbc}: MariaDB/MySQL and PostgreSQL targets, exactly-once, settings in {@code applier.jdbc}. */
public final class JdbcApplierProvider implements ApplierProvider<JdbcTargetConfig> {

  @Override
  public String type() {
    return "jdbc";
  }

  @Override
  public Class<JdbcTargetConfig> settingsType() {
    return JdbcTargetConfig.class;
  }

  @Override
  public boolean checkpointsInTarget() {
    return true;
  }

  @Override
  public Applier open(JdbcTargetConfig settings, ApplierContext context) {
    return JdbcService.start(context.consumer(), settings, context.meters(), context.sourcePartitions());
  }
}
