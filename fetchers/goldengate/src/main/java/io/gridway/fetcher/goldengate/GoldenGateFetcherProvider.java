package io.gridway.fetcher.goldengate;

import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherContext;
import io.gridway.core.fetch.FetcherProvider;

/** {@code source.type: goldengate}: GoldenGate's XML trail or JSON operation files, with its {@code source.goldengate} section. */
public final class GoldenGateFetcherProvider implements FetcherProvider<GoldenGateConfig> {

  @Override
  public String type() {
    return "goldengate";
  }

  @Override
  public Class<GoldenGateConfig> settingsType() {
    return GoldenGateConfig.class;
  }

  @Override
  public Fetcher create(GoldenGateConfig settings, FetcherContext context) {
    return new GoldenGateFetcher(settings, context.sourceId(), context.clock());
  }
}
