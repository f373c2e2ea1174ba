/**
 * Real, private MariaDB, PostgreSQL and ZooKeeper servers on 127.0.0.1 for integration tests, as
 * JUnit 5 extensions ({@link io.gridway.testkit.MariaDbExtension}, {@link
 * io.gridway.testkit.PostgresExtension}, {@link io.gridway.testkit.ZooKeeperExtension}); never the
 * machine's own database services. For fault scenarios: {@link io.gridway.testkit.FaultProxy} (network faults
 * made in the test JVM) and {@link io.gridway.testkit.ReplicaVerifier} (the one final-state check).
 */
package io.gridway.testkit;
