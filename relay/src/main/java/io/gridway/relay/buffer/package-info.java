/**
 * The relay's off-heap event buffer: complete windows of encoded frames in SCN order, bounded in
 * bytes, read concurrently without blocking the single publisher.
 */
package io.gridway.relay.buffer;
