/** The consumer's apply policy: route and conflict rules for the appliers, hot reloaded. */
package io.gridway.consumer.policy;
