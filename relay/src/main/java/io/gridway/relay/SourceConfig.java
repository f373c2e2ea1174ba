package io.gridway.relay;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.gridway.core.config.PluginSectionsDeserializer;
import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherContext;
import io.gridway.core.fetch.FetcherProvider;
import io.gridway.core.plugin.Plugins;
import java.time.Clock;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The source a relay reads ({@code source:} in the relay's YAML): an id, the partition count, and one section named
 * after an installed fetcher ({@code mysql}, {@code synthetic}, {@code goldengate}, ...) holding its settings;
 * {@code type} may name it too. Fetchers are found through {@link Plugins} ({@link FetcherProvider}), so a fetcher
 * module on the class path is all the relay needs.
 *
 * @param id the source id (in URLs and schemas): letters, digits, '.', '_', '-', at most 64; by default the one the
 *     fetcher's settings imply ({@code mysql.source}), which it must then equal
 * @param partitions how many partitions events are spread over (0..partitions-1): without policy files, by
 *     primary-key hash; the fetch policy's partition rules must stay below it. TRUNCATE and DDL go to every one
 * @param type the fetcher's type
 * @param settings the fetcher's settings record (its README lists the keys), or null when it takes none
 */
@JsonDeserialize(using = SourceConfig.Reader.class)
public record SourceConfig(String id, Integer partitions, String type, Object settings) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  public SourceConfig {
    FetcherProvider<?> provider = fetchers().get(type);
    if (settings != null && !provider.settingsType().isInstance(settings)) {
      throw new IllegalArgumentException(type + ": settings of " + settings.getClass().getSimpleName() + ", not "
          + provider.settingsType().getSimpleName());
    }
    String implied = settings == null ? null : impliedId(provider, settings);
    if (id == null) {
      id = implied;
    }
    if (id == null) {
      throw new IllegalArgumentException("id is required");
    }
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("id must be 1..64 letters, digits, '.', '_' or '-', not '" + id + "'");
    }
    if (implied != null && !implied.equals(id)) {
      throw new IllegalArgumentException("id '" + id + "' differs from " + type + ".source '" + implied + "'");
    }
    partitions = partitions == null ? 1 : partitions;
    if (partitions < 1 || partitions > 65536) {
      throw new IllegalArgumentException("partitions must be 1..65536, not " + partitions);
    }
  }

  /** The installed fetchers. */
  static Plugins<FetcherProvider<?>> fetchers() {
    @SuppressWarnings({"unchecked", "rawtypes"})
    Plugins<FetcherProvider<?>> plugins = (Plugins) Plugins.installed(FetcherProvider.class, "source.type");
    return plugins;
  }

  /** The settings if they are of {@code settingsType} (the source is of that fetcher's type), else null. */
  public <S> S settings(Class<S> settingsType) {
    return settingsType.isInstance(settings) ? settingsType.cast(settings) : null;
  }

  /**
   * Whether the relay routes this source's changes by primary-key hash over {@link #partitions} when no policy file
   * is configured: yes for a real source (its fetcher leaves everything in partition 0); the synthetic source
   * assigns its partitions itself (a hash of the generated id).
   */
  boolean routedByDefault() {
    return !"synthetic".equals(type);
  }

  /** The fetcher this config describes, not yet started. */
  Fetcher newFetcher(Clock clock) {
    return create(fetchers().get(type), settings, new FetcherContext(id, partitions, clock));
  }

  private static <S> String impliedId(FetcherProvider<S> provider, Object settings) {
    return provider.sourceId(provider.settingsType().cast(settings));
  }

  private static <S> Fetcher create(FetcherProvider<S> provider, Object settings, FetcherContext context) {
    return provider.create(provider.settingsType().cast(settings), context);
  }

  /** Reads {@code id}, {@code partitions}, {@code type} and the fetcher's section. */
  public static final class Reader extends PluginSectionsDeserializer<SourceConfig> {
    private static final long serialVersionUID = 1L;

    public Reader() {
      super(SourceConfig.class);
    }

    @Override
    protected Map<String, Class<?>> fixedKeys() {
      return Map.of("id", String.class, "partitions", Integer.class);
    }

    @Override
    protected Plugins<?> plugins() {
      return fetchers();
    }

    @Override
    protected SourceConfig build(Map<String, Object> fixed, String type, Object settings) {
      return new SourceConfig((String) fixed.get("id"), (Integer) fixed.get("partitions"), type, settings);
    }
  }
}
