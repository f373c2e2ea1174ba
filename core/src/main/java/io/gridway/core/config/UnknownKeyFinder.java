package io.gridway.core.config;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException.Reference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the first key in a document that its target records do not declare. Jackson builds a record
 * (and runs its validation) before it reports an unknown key, so a misspelt key whose absence fails
 * validation would otherwise be reported as that validation error, far from the typo.
 */
final class UnknownKeyFinder {

  /** The path to an unknown key and the keys its record knows. */
  record Unknown(List<Reference> path, String key, Set<String> known) {}

  private final ObjectMapper mapper;

  UnknownKeyFinder(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The first unknown key in document order, or null when every key is declared. */
  Unknown find(JsonNode document, Class<?> type) {
    return walk(document, mapper.constructType(type), new ArrayList<>());
  }

  private Unknown walk(JsonNode node, JavaType type, List<Reference> path) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (type.isCollectionLikeType() || type.isArrayType()) {
      if (node.isArray()) {
        for (int i = 0; i < node.size(); i++) {
          path.add(new Reference(null, i));
          Unknown found = walk(node.get(i), type.getContentType(), path);
          if (found != null) {
            return found;
          }
          path.remove(path.size() - 1);
        }
      }
      return null;
    }
    if (type.isMapLikeType()) {
      if (node.isObject()) {
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
          path.add(new Reference(null, entry.getKey()));
          Unknown found = walk(entry.getValue(), type.getContentType(), path);
          if (found != null) {
            return found;
          }
          path.remove(path.size() - 1);
        }
      }
      return null;
    }
    PluginSectionsDeserializer<?> sections = pluginSections(type.getRawClass());
    if (sections != null && node.isObject()) {
      for (Map.Entry<String, JsonNode> entry : node.properties()) {
        path.add(new Reference(null, entry.getKey()));
        Class<?> valueType = sections.keyType(entry.getKey());
        if (valueType == null) {
          return new Unknown(List.copyOf(path), entry.getKey(), new TreeSet<>(sections.knownKeys()));
        }
        Unknown found = walk(entry.getValue(), mapper.constructType(valueType), path);
        if (found != null) {
          return found;
        }
        path.remove(path.size() - 1);
      }
      return null;
    }
    if (!type.isRecordType() || !node.isObject()) {
      return null;
    }
    BeanDescription description = mapper.getDeserializationConfig().introspect(type);
    Set<String> known = new TreeSet<>();
    for (BeanPropertyDefinition property : description.findProperties()) {
      known.add(property.getName());
    }
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      BeanPropertyDefinition property = property(description, entry.getKey());
      if (property == null) {
        path.add(new Reference(null, entry.getKey()));
        return new Unknown(List.copyOf(path), entry.getKey(), known);
      }
      path.add(new Reference(null, entry.getKey()));
      Unknown found = walk(entry.getValue(), property.getPrimaryType(), path);
      if (found != null) {
        return found;
      }
      path.remove(path.size() - 1);
    }
    return null;
  }

  /** The plugin-section reader a config record names with {@code @JsonDeserialize(using = ...)}, or null. */
  private static PluginSectionsDeserializer<?> pluginSections(Class<?> type) {
    JsonDeserialize annotation = type.getAnnotation(JsonDeserialize.class);
    if (annotation == null || !PluginSectionsDeserializer.class.isAssignableFrom(annotation.using())) {
      return null;
    }
    try {
      return (PluginSectionsDeserializer<?>) annotation.using().getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(annotation.using().getName() + " needs a public no-argument constructor", e);
    }
  }

  private static BeanPropertyDefinition property(BeanDescription description, String name) {
    for (BeanPropertyDefinition property : description.findProperties()) {
      if (property.getName().equals(name) || property.findAliases().stream().anyMatch(alias -> alias.getSimpleName().equals(name))) {
        return property;
      }
    }
    return null;
  }
}
