/**
 * The policy language and its evaluators: {@link io.gridway.policy.PolicyLoader} reads and compiles
 * YAML policies into immutable {@link io.gridway.policy.Policy} objects, whose fetch, subscription
 * and apply evaluators the relay and consumer call per event.
 */
package io.gridway.policy;
