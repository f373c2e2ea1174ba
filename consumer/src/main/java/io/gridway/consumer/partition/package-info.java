/** Micro-batching: the {@link io.gridway.consumer.partition.Partitioner} SPI and its built-in strategies. */
package io.gridway.consumer.partition;
