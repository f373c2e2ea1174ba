/** The relay's HTTP/1.1 API on Netty: long-poll and streamed event frames, schemas, sources, health, metrics. */
package io.gridway.relay.http;
