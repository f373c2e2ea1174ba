/** {@code gridway perf}: the whitepaper's load generator, stage-1 runs, limits and reports (issue 8). */
package io.gridway.perf;
