/** Multi-process acceptance tests of cluster mode (issue 9): consumer, relay and controller JVMs around one embedded ZooKeeper. */
package io.gridway.consumer.cluster;
