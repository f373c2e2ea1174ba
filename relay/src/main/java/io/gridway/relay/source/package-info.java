/** Sources the relay reads: the synthetic generator (binlog and GoldenGate fetchers live in their own modules). */
package io.gridway.relay.source;
