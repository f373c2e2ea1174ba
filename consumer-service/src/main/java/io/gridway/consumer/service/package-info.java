/** The consumer service: the library wired from a YAML file with an applier, Helix ownership, relay discovery and {@code main}. */
package io.gridway.consumer.service;
