/** Checkpoint stores of the consumer: a local file store and an in-memory one, implementing core's SPI. */
package io.gridway.consumer.checkpoint;
