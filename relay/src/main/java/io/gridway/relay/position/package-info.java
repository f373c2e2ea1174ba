/** The relay's persisted fetch position and replay checkpoints. */
package io.gridway.relay.position;
