package io.gridway.relay.source;

import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherContext;
import io.gridway.core.fetch.FetcherProvider;

/** {@code source.type: synthetic}: generated rows for tests, the demo and the perf harness. */
public final class SyntheticFetcherProvider implements FetcherProvider<SyntheticConfig> {

  @Override
  public String type() {
    return "synthetic";
  }

  @Override
  public Class<SyntheticConfig> settingsType() {
    return SyntheticConfig.class;
  }

  @Override
  public Fetcher create(SyntheticConfig settings, FetcherContext context) {
    return new SyntheticFetcher(context.sourceId(), settings, context.partitions(), context.clock());
  }
}
