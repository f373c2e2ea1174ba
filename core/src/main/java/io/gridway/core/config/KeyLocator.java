package io.gridway.core.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException.Reference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;

/** Finds where a key path (as Jackson reports it) stands in a document, by re-reading its tokens. */
final class KeyLocator {
  private KeyLocator() {}

  /** The location of the key or list element at {@code path}, or null when it cannot be found. */
  static JsonLocation locate(ObjectMapper mapper, String text, List<Reference> path) {
    try (JsonParser parser = mapper.createParser(text)) {
      if (parser.nextToken() == null) {
        return null;
      }
      return descend(parser, path, 0);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The parser stands on the start of the value that contains {@code path[depth]}. */
  private static JsonLocation descend(JsonParser parser, List<Reference> path, int depth) throws IOException {
    Reference step = path.get(depth);
    JsonToken container = parser.currentToken();
    if (container == JsonToken.START_OBJECT && step.getFieldName() != null) {
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        boolean match = step.getFieldName().equals(parser.currentName());
        JsonLocation keyLocation = parser.currentTokenLocation();
        parser.nextToken();
        if (match) {
          return depth + 1 == path.size() ? keyLocation : descendOr(parser, path, depth + 1, keyLocation);
        }
        parser.skipChildren();
      }
    } else if (container == JsonToken.START_ARRAY && step.getIndex() >= 0) {
      int index = 0;
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        if (index++ == step.getIndex()) {
          JsonLocation elementLocation = parser.currentTokenLocation();
          return depth + 1 == path.size() ? elementLocation : descendOr(parser, path, depth + 1, elementLocation);
        }
        parser.skipChildren();
      }
    }
    return null;
  }

  private static JsonLocation descendOr(JsonParser parser, List<Reference> path, int depth, JsonLocation fallback)
      throws IOException {
    JsonLocation inner = descend(parser, path, depth);
    return inner != null ? inner : fallback;
  }
}
