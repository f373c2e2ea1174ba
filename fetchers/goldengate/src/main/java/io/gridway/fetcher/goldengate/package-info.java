/**
 * The GoldenGate fetcher: {@link io.gridway.fetcher.goldengate.GoldenGateFetcher} tails a directory of
 * GoldenGate's rolling output files (Classic Extract FORMATXML trails, or the GoldenGate for Big Data JSON
 * operation format) and hands whole transactions to a relay; {@link
 * io.gridway.fetcher.goldengate.GoldenGateConfig} configures it; {@link
 * io.gridway.fetcher.goldengate.TrailLimitReader} reads and tokenizes the same files without building
 * events (the same-machine limit for benchmarks). Everything else is package-private.
 */
package io.gridway.fetcher.goldengate;
