/** The change-event model: events, transactions (windows), SCNs, source positions and heartbeats. */
package io.gridway.core.event;
