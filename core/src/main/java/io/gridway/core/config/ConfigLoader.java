package io.gridway.core.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Loads a YAML document into an immutable config record. Unknown keys are rejected (a misspelt key
 * must not silently fall back to a default), records validate themselves in their compact
 * constructors, and every failure becomes one {@link ConfigException} naming the file, line, key and
 * reason. Thread-safe.
 *
 * <p>Config records declare optional keys with boxed types and apply defaults in their compact
 * constructors (null means the key was absent); an absent primitive component reads as 0 or false.
 */
public final class ConfigLoader {
  private static final ObjectMapper YAML = newMapper(YAMLMapper.builder());
  private static final ObjectMapper JSON = newMapper(JsonMapper.builder());

  private ConfigLoader() {}

  private static ObjectMapper newMapper(MapperBuilder<?, ?> builder) {
    SimpleModule durations = new SimpleModule("gridway-config-values");
    durations.addDeserializer(Duration.class, new JsonDeserializer<>() {
      @Override
      public Duration deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        try {
          return DurationParser.parse(parser.getValueAsString());
        } catch (RuntimeException e) {
          throw InvalidFormatException.from(parser, e.getMessage(), parser.getText(), Duration.class);
        }
      }
    });
    durations.setDeserializerModifier(new ConfigEnums());
    return builder
        .addModule(durations)
        .enable(
            DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
            DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS,
            DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
            DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .build();
  }

  /** Reads and validates a YAML file. */
  public static <T> T load(Path file, Class<T> type) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file.toString(), 0, 0, "", "no such file");
    } catch (IOException e) {
      throw new ConfigException(file.toString(), 0, 0, "", "cannot read: " + e.getMessage());
    }
    return parse(text, file.toString(), type);
  }

  /** Parses and validates YAML text; {@code origin} names it in errors (a file name, "--config", …). */
  public static <T> T parse(String yaml, String origin, Class<T> type) {
    if (yaml.isBlank()) {
      throw new ConfigException(origin, 0, 0, "", "the configuration is empty");
    }
    return read(YAML, yaml, origin, type);
  }

  /** Parses and validates JSON text, with the same rules and errors as YAML. */
  public static <T> T parseJson(String json, String origin, Class<T> type) {
    return read(JSON, json, origin, type);
  }

  private static <T> T read(ObjectMapper mapper, String text, String origin, Class<T> type) {
    try {
      T value = mapper.readValue(text, type);
      if (value == null) {
        throw new ConfigException(origin, 0, 0, "", "the configuration is empty");
      }
      return value;
    } catch (JsonProcessingException e) {
      if (e instanceof ValueInstantiationException || e instanceof MismatchedInputException) {
        ConfigException unknown = unknownKey(mapper, text, origin, type);
        if (unknown != null) {
          throw unknown;
        }
      }
      throw translate(mapper, text, e, origin);
    }
  }

  /** A misspelt key explains a failed validation better than the validation message does. */
  private static ConfigException unknownKey(ObjectMapper mapper, String text, String origin, Class<?> type) {
    UnknownKeyFinder.Unknown unknown;
    try {
      unknown = new UnknownKeyFinder(mapper).find(mapper.readTree(text), type);
    } catch (JsonProcessingException | RuntimeException notATree) {
      return null;
    }
    if (unknown == null) {
      return null;
    }
    JsonLocation location = KeyLocator.locate(mapper, text, unknown.path());
    String key = unknown.path().stream()
        .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
    return new ConfigException(origin, location == null ? 0 : location.getLineNr(), location == null ? 0 : location.getColumnNr(),
        key, "unknown key '" + unknown.key() + "'" + known(List.copyOf(unknown.known())));
  }

  private static ConfigException translate(ObjectMapper mapper, String text, JsonProcessingException e, String origin) {
    JsonLocation location = e.getLocation();
    String key = "";
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      key = path(mapping);
      // Records are built after their whole mapping is read, so Jackson reports where the mapping
      // ended; an operator wants the line of the key itself.
      JsonLocation keyLocation = KeyLocator.locate(mapper, text, mapping.getPath());
      location = keyLocation != null ? keyLocation : location;
    }
    int line = location == null ? 0 : location.getLineNr();
    int column = location == null ? 0 : location.getColumnNr();
    return new ConfigException(origin, Math.max(line, 0), Math.max(column, 0), key, reason(e));
  }

  private static String path(JsonMappingException e) {
    return e.getPath().stream()
        .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }

  private static String reason(JsonProcessingException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      return "unknown key '" + unknown.getPropertyName() + "'" + known(unknown.getKnownPropertyIds());
    }
    if (e instanceof ValueInstantiationException instantiation && instantiation.getCause() != null) {
      Throwable cause = instantiation.getCause();
      return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
    if (e instanceof InvalidFormatException invalid) {
      String message = invalid.getOriginalMessage();
      return message;
    }
    if (e instanceof MismatchedInputException mismatch) {
      if (mismatch.getOriginalMessage().startsWith("Missing required creator property")) {
        return "missing required key";
      }
      Class<?> target = mismatch.getTargetType();
      return target == null ? mismatch.getOriginalMessage() : "expected " + describe(target) + " (" + firstLine(mismatch.getOriginalMessage()) + ")";
    }
    return "invalid YAML: " + firstLine(e.getOriginalMessage());
  }

  private static String known(Collection<?> ids) {
    if (ids == null || ids.isEmpty()) {
      return "";
    }
    return " (known keys: " + ids.stream().map(String::valueOf).sorted().collect(Collectors.joining(", ")) + ")";
  }

  private static String describe(Class<?> type) {
    if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
      return "a whole number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (java.util.List.class.isAssignableFrom(type)) {
      return "a list";
    }
    if (type.isRecord() || java.util.Map.class.isAssignableFrom(type)) {
      return "a mapping of keys to values";
    }
    return "a " + type.getSimpleName();
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
