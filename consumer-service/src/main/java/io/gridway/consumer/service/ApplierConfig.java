package io.gridway.consumer.service;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.gridway.consumer.apply.Applier;
import io.gridway.consumer.apply.ApplierContext;
import io.gridway.consumer.apply.ApplierProvider;
import io.gridway.core.config.PluginSectionsDeserializer;
import io.gridway.core.plugin.Plugins;
import java.util.Map;

/**
 * The service's {@code applier:} section: the type of an installed applier ({@link ApplierProvider}, found through
 * {@link Plugins} as the relay finds fetchers) and its settings, read from the section named after it ({@code
 * applier: {jdbc: {url: ...}}}; {@code type: jdbc} may name it too).
 *
 * @param type the applier's type
 * @param settings its settings record, or null when it takes none
 */
@JsonDeserialize(using = ApplierConfig.Reader.class)
public record ApplierConfig(String type, Object settings) {
  /** No {@code applier:} section: the null applier, which counts what arrives. */
  static final ApplierConfig NONE = new ApplierConfig("null", null);

  public ApplierConfig {
    ApplierProvider<?> provider = appliers().get(type);
    if (settings != null && !provider.settingsType().isInstance(settings)) {
      throw new IllegalArgumentException(type + ": settings of " + settings.getClass().getSimpleName() + ", not "
          + provider.settingsType().getSimpleName());
    }
  }

  /** The installed appliers. */
  static Plugins<ApplierProvider<?>> appliers() {
    @SuppressWarnings({"unchecked", "rawtypes"})
    Plugins<ApplierProvider<?>> plugins = (Plugins) Plugins.installed(ApplierProvider.class, "applier.type");
    return plugins;
  }

  /** Whether this applier keeps checkpoints in its target, so the service needs no store of its own. */
  public boolean checkpointsInTarget() {
    return appliers().get(type).checkpointsInTarget();
  }

  /** The settings if they are of {@code settingsType}, else null. */
  public <S> S settings(Class<S> settingsType) {
    return settingsType.isInstance(settings) ? settingsType.cast(settings) : null;
  }

  /** Opens the applier this config names. */
  public Applier open(ApplierContext context) {
    return open(appliers().get(type), settings, context);
  }

  private static <S> Applier open(ApplierProvider<S> provider, Object settings, ApplierContext context) {
    return provider.open(provider.settingsType().cast(settings), context);
  }

  /** Reads {@code type} and the applier's section. */
  public static final class Reader extends PluginSectionsDeserializer<ApplierConfig> {
    private static final long serialVersionUID = 1L;

    public Reader() {
      super(ApplierConfig.class);
    }

    @Override
    protected Map<String, Class<?>> fixedKeys() {
      return Map.of();
    }

    @Override
    protected Plugins<?> plugins() {
      return appliers();
    }

    @Override
    protected ApplierConfig build(Map<String, Object> fixed, String type, Object settings) {
      return new ApplierConfig(type, settings);
    }
  }
}
