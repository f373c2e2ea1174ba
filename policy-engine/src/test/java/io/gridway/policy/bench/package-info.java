/** JMH benchmarks of the policy evaluators (run with {@code -Pbench}, not as tests). */
package io.gridway.policy.bench;
