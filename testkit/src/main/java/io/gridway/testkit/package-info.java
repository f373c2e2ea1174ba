/**
 * Real, private MariaDB, PostgreSQL and ZooKeeper servers on 127.0.0.1 for integration tests, as
 * JUnit 5 extensions ({@link io.gridway.testkit.MariaDbExtension}, {@link
 * io.gridway.testkit.PostgresExtension}, {@link io.gridway.testkit.ZooKeeperExtension}); never the
 * machine's own database services.
 */
package io.gridway.testkit;
