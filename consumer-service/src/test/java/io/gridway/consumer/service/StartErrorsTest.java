package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/** Which start-up database errors the operator must fix (exit 2) and which may pass (retried, then exit 1). */
class StartErrorsTest {

  @Test
  void refusedCredentialsAndMissingDatabasesNeedTheOperator() {
    assertThat(StartErrors.needsOperator(new SQLException("password authentication failed", "28P01"))).isTrue();
    assertThat(StartErrors.needsOperator(new SQLException("Access denied for user", "28000", 1045))).isTrue();
    assertThat(StartErrors.needsOperator(new SQLException("database \"x\" does not exist", "3D000"))).isTrue();
    assertThat(StartErrors.needsOperator(new SQLException("Unknown database 'gridway'", "42000", 1049))).isTrue();
    // the pool's timeout wraps the driver's reason: the cause decides
    assertThat(StartErrors.needsOperator(new SQLTransientConnectionException("Connection is not available", "42000",
        new SQLException("Unknown database 'gridway'", "42000", 1049)))).isTrue();
  }

  @Test
  void refusedConnectionsTimeoutsAndStartingServersMayPass() {
    assertThat(StartErrors.needsOperator(new SQLException("Connection refused", "08001"))).isFalse();
    assertThat(StartErrors.needsOperator(new SQLException("the database system is starting up", "57P03"))).isFalse();
    assertThat(StartErrors.needsOperator(new SQLTransientConnectionException("Connection is not available, request "
        + "timed out after 5002ms"))).isFalse();
  }
}
