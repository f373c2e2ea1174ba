/**
 * The Gridway consumer library: {@link io.gridway.consumer.GridwayConsumer} and its handler API; the
 * puller, buffer, dispatcher, committer and lanes behind it are package-private.
 */
package io.gridway.consumer;
