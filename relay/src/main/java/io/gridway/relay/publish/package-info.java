/** The publisher: turns a fetcher's transactions into windows in the event buffer, and keeps the schemas they use. */
package io.gridway.relay.publish;
