/** Fetch policies in the relay: loading, applying at window boundaries, hot reload. */
package io.gridway.relay.policy;
