package io.gridway.core.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.gridway.core.plugin.Plugin;
import io.gridway.core.plugin.Plugins;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads a mapping that chooses a {@link Plugin} by name: some fixed keys, an optional {@code type}, and one
 * section named after an installed plugin, read into that plugin's settings record ({@code source: {id: orders,
 * mysql: {...}}}, {@code applier: {type: jdbc, jdbc: {...}}}). {@code type} defaults to the section's name; a section
 * is required when the plugin takes settings. Errors keep the key's path and location, like any config record's.
 *
 * <p>Subclasses need a public no-argument constructor: {@link UnknownKeyFinder} builds one to learn the keys.
 *
 * @param <T> the config record built from the mapping
 */
public abstract class PluginSectionsDeserializer<T> extends StdDeserializer<T> {
  private static final long serialVersionUID = 1L;

  protected PluginSectionsDeserializer(Class<T> type) {
    super(type);
  }

  /** The fixed keys besides {@code type} and the plugin sections, with the types their values are read into. */
  protected abstract Map<String, Class<?>> fixedKeys();

  /** The installed plugins whose names may head a section. */
  protected abstract Plugins<?> plugins();

  /**
   * Builds the record.
   *
   * @param fixed the fixed keys that were given
   * @param type the chosen plugin's type (already checked to be installed)
   * @param settings its section, read into its settings record, or null when absent
   * @throws IllegalArgumentException naming the key of a value that cannot be used
   */
  protected abstract T build(Map<String, Object> fixed, String type, Object settings);

  /** The type the value of {@code key} is read into, or null when the key is unknown. */
  final Class<?> keyType(String key) {
    if (key.equals("type")) {
      return String.class;
    }
    Class<?> fixed = fixedKeys().get(key);
    return fixed != null ? fixed : plugins().find(key).map(Plugin::settingsType).orElse(null);
  }

  /** Every key this mapping accepts. */
  final List<String> knownKeys() {
    TreeSet<String> keys = new TreeSet<>(fixedKeys().keySet());
    keys.add("type");
    keys.addAll(plugins().types());
    return new ArrayList<>(keys);
  }

  @Override
  public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
    if (!parser.isExpectedStartObjectToken()) {
      @SuppressWarnings("unchecked")
      T unexpected = (T) context.handleUnexpectedToken(handledType(), parser);
      return unexpected;
    }
    Map<String, Object> fixed = new HashMap<>();
    String type = null;
    String section = null;
    Object settings = null;
    for (String key = parser.nextFieldName(); key != null; key = parser.nextFieldName()) {
      JsonToken value = parser.nextToken();
      Class<?> valueType = keyType(key);
      if (valueType == null) {
        UnrecognizedPropertyException unknown = UnrecognizedPropertyException.from(parser, handledType(), key,
            new ArrayList<>(knownKeys()));
        unknown.prependPath(handledType(), key);
        throw unknown;
      }
      try {
        if (key.equals("type")) {
          type = value == JsonToken.VALUE_NULL ? null : context.readValue(parser, String.class);
        } else if (fixedKeys().containsKey(key)) {
          fixed.put(key, value == JsonToken.VALUE_NULL ? null : context.readValue(parser, valueType));
        } else {
          if (section != null) {
            throw ValueInstantiationException.from(parser, "give one of " + String.join(", ", plugins().types())
                + ", not both " + section + " and " + key, context.constructType(handledType()));
          }
          section = key;
          settings = value == JsonToken.VALUE_NULL || valueType == Void.class ? null
              : context.readValue(parser, valueType);
        }
      } catch (JsonMappingException e) {
        throw JsonMappingException.wrapWithPath(e, handledType(), key);
      }
    }
    try {
      String chosen = resolveType(type, section);
      Class<?> settingsType = plugins().get(chosen).settingsType();
      if (section == null && settingsType != Void.class) {
        try {
          settings = context.readTreeAsValue(JsonNodeFactory.instance.objectNode(), settingsType);
        } catch (JsonMappingException e) {
          throw JsonMappingException.wrapWithPath(e, handledType(), chosen);
        }
      }
      return build(fixed, chosen, settings);
    } catch (IllegalArgumentException e) {
      throw ValueInstantiationException.from(parser, e.getMessage(), context.constructType(handledType()), e);
    }
  }

  private String resolveType(String type, String section) {
    Plugins<?> plugins = plugins();
    if (type == null && section == null) {
      throw new IllegalArgumentException("type: required, one of " + String.join(", ", plugins.types()));
    }
    String chosen = type != null ? type : section;
    plugins.get(chosen);
    if (section != null && !section.equals(chosen)) {
      throw new IllegalArgumentException(section + ": not with type " + chosen + " (its section is " + chosen + ")");
    }
    return chosen;
  }
}
