package io.gridway.core.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Every enum in a configuration is written in lower case with '-' for '_' ({@code long-poll} for {@code LONG_POLL});
 * upper case and '_' are accepted too. Config records therefore need no Jackson annotation on their enums.
 */
final class ConfigEnums extends BeanDeserializerModifier {
  private static final long serialVersionUID = 1L;

  /** The name a configuration uses for {@code constant}. */
  static String configName(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public JsonDeserializer<?> modifyEnumDeserializer(DeserializationConfig config, JavaType type, BeanDescription description,
      JsonDeserializer<?> deserializer) {
    return new Reader(type.getRawClass());
  }

  private static final class Reader extends StdScalarDeserializer<Enum<?>> {
    private static final long serialVersionUID = 1L;
    private final Enum<?>[] constants;

    Reader(Class<?> type) {
      super(type);
      this.constants = (Enum<?>[]) type.getEnumConstants();
    }

    @Override
    public Enum<?> deserialize(JsonParser parser, DeserializationContext context) throws IOException {
      if (parser.currentToken() != JsonToken.VALUE_STRING) {
        return (Enum<?>) context.handleUnexpectedToken(handledType(), parser);
      }
      String text = parser.getText();
      String name = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
      for (Enum<?> constant : constants) {
        if (constant.name().equals(name)) {
          return constant;
        }
      }
      throw InvalidFormatException.from(parser, "'" + text + "' is not one of "
          + Arrays.stream(constants).map(ConfigEnums::configName).collect(Collectors.joining(", ")), text, handledType());
    }
  }
}
