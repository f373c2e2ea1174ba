/** A relay in cluster mode: Helix membership, its advertised endpoint, and its fetch position in ZooKeeper. */
package io.gridway.relay.cluster;
