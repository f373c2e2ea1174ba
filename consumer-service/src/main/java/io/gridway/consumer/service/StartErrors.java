package io.gridway.consumer.service;

import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import java.sql.SQLException;

/**
 * Sorts what opening an applier threw into a configuration to change ({@link IllegalArgumentException}: exit 2) and a
 * target that may come back ({@link PeerUnavailableException}: retried for {@code startTimeout}, then exit 1). The
 * drivers' SQLSTATEs decide: class 28 (the user or password is refused), 3D000 (PostgreSQL: no such database) and
 * MariaDB's 1044/1045/1049 (access denied, no such database) need the operator; refused connections, timeouts and a
 * server still starting do not.
 */
final class StartErrors {
  private StartErrors() {}

  static Applier open(ApplierConfig config, ApplierContext context) {
    try {
      return config.open(context);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      SQLException sql = sqlCause(e);
      if (sql == null) {
        throw e;
      }
      if (needsOperator(sql)) {
        throw new IllegalArgumentException("applier." + config.type() + ": " + e.getMessage(), e);
      }
      throw new PeerUnavailableException(e.getMessage(), e);
    }
  }

  static boolean needsOperator(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s) {
        String state = s.getSQLState() == null ? "" : s.getSQLState();
        int code = s.getErrorCode();
        if (state.startsWith("28") || state.equals("3D000") || code == 1044 || code == 1045 || code == 1049) {
          return true;
        }
      }
    }
    return false;
  }

  private static SQLException sqlCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s) {
        return s;
      }
    }
    return null;
  }
}
