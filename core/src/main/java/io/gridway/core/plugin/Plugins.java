package io.gridway.core.plugin;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The installed implementations of one kind of {@link Plugin}, by type: the one mechanism by which the relay
 * finds fetchers and the consumer service finds appliers. Loaded once per kind and class loader; immutable and
 * thread-safe.
 *
 * @param <P> the kind, e.g. {@link io.gridway.core.fetch.FetcherProvider}
 */
public final class Plugins<P extends Plugin> {
  private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  private static final Map<Key, Plugins<?>> LOADED = new ConcurrentHashMap<>();

  private record Key(Class<?> kind, ClassLoader loader) {}

  private final String key;
  private final Map<String, P> byType;

  private Plugins(String key, Map<String, P> byType) {
    this.key = key;
    this.byType = Collections.unmodifiableMap(byType);
  }

  /**
   * The implementations of {@code kind} visible to the context class loader.
   *
   * @param key the configuration key that names a type ({@code source.type}), for error messages
   * @throws IllegalStateException when two implementations claim one type or a type is not a valid name
   */
  public static <P extends Plugin> Plugins<P> installed(Class<P> kind, String key) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return installed(kind, key, loader != null ? loader : Plugins.class.getClassLoader());
  }

  /** The implementations of {@code kind} that {@code loader} sees (an add-on's loader sees the core's too). */
  @SuppressWarnings("unchecked")
  public static <P extends Plugin> Plugins<P> installed(Class<P> kind, String key, ClassLoader loader) {
    return (Plugins<P>) LOADED.computeIfAbsent(new Key(kind, loader), k -> load(kind, key, loader));
  }

  private static <P extends Plugin> Plugins<P> load(Class<P> kind, String key, ClassLoader loader) {
    Map<String, P> byType = new TreeMap<>();
    for (P plugin : ServiceLoader.load(kind, loader)) {
      String type = plugin.type();
      if (type == null || !TYPE.matcher(type).matches()) {
        throw new IllegalStateException(plugin.getClass().getName() + " declares the invalid " + key + " '" + type
            + "' (lower-case letters, digits and '-', at most 32)");
      }
      P other = byType.putIfAbsent(type, plugin);
      if (other != null && other.getClass() != plugin.getClass()) {
        throw new IllegalStateException(key + " '" + type + "' is claimed by both " + other.getClass().getName()
            + " and " + plugin.getClass().getName() + ": remove one of their jars");
      }
    }
    return new Plugins<>(key, byType);
  }

  /** The implementation of {@code type}, if installed. */
  public Optional<P> find(String type) {
    return Optional.ofNullable(byType.get(type));
  }

  /**
   * The implementation of {@code type}.
   *
   * @throws IllegalArgumentException naming the key and the installed types when none is installed
   */
  public P get(String type) {
    P plugin = byType.get(type);
    if (plugin == null) {
      throw new IllegalArgumentException(key + ": '" + type + "' is not " + (byType.isEmpty() ? "installed (none is)"
          : "one of " + String.join(", ", byType.keySet())));
    }
    return plugin;
  }

  /** The installed types, sorted. */
  public Set<String> types() {
    return byType.keySet();
  }
}
