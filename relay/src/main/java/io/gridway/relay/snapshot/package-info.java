/** Snapshot chunks served to the consumer group that asks, beside the change buffer (docs/bootstrap.md). */
package io.gridway.relay.snapshot;
