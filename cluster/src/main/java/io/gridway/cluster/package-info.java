/**
 * Cluster mode on Apache Helix and ZooKeeper: ZooKeeper (embedded or external), idempotent cluster setup,
 * consumer and relay participants, the fenced ZooKeeper checkpoint store, relay discovery, the controller
 * host and a status snapshot.
 */
package io.gridway.cluster;
