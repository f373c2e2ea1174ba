package io.gridway.core.fetch;

import io.gridway.core.plugin.Plugin;

/**
 * A source type the relay can read ({@code source.type}): registered in {@code
 * META-INF/services/io.gridway.core.fetch.FetcherProvider}, found through {@link io.gridway.core.plugin.Plugins}.
 * Implementations are stateless and thread-safe.
 *
 * @param <S> the record of its {@code source.<type>} section
 */
public interface FetcherProvider<S> extends Plugin {

  @Override
  Class<S> settingsType();

  /** The source id these settings imply when the config gives no {@code source.id} (e.g. {@code mysql.source}), or null. */
  default String sourceId(S settings) {
    return null;
  }

  /** A fetcher for these settings, not yet started. */
  Fetcher create(S settings, FetcherContext context);
}
