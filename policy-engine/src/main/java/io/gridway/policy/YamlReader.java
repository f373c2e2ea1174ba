package io.gridway.policy;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one YAML document into a {@link YNode} tree that remembers where each value came from.
 *
 * <p>Jackson's streaming parser is used rather than its tree model because only the token stream
 * carries positions ({@link JsonParser#currentTokenLocation()}). Duplicate keys and a second
 * document in the same file are reported as problems rather than silently resolved. Stateless and
 * thread-safe.
 */
final class YamlReader {
  private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

  private YamlReader() {}

  /** The document's root, or null after reporting why it could not be read. */
  static YNode read(String text, Problems problems) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        problems.add(new Loc(1, 1), null, "the file is empty");
        return null;
      }
      YNode root = readValue(parser, problems);
      if (parser.nextToken() != null) {
        problems.add(loc(parser.currentTokenLocation()), null, "only one YAML document per policy file");
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      problems.add(where == null ? Loc.UNKNOWN : loc(where), null, "YAML syntax error: " + firstLine(e.getOriginalMessage()));
      return null;
    } catch (IOException e) {
      problems.add(Loc.UNKNOWN, null, "cannot read: " + e.getMessage());
      return null;
    }
  }

  private static YNode readValue(JsonParser parser, Problems problems) throws IOException {
    Loc at = loc(parser.currentTokenLocation());
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, YNode.Entry> entries = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          Loc keyLoc = loc(parser.currentTokenLocation());
          parser.nextToken();
          YNode value = readValue(parser, problems);
          if (entries.containsKey(key)) {
            problems.add(keyLoc, null, "duplicate key '" + key + "' (first at line " + entries.get(key).keyLoc().line() + ")");
          } else {
            entries.put(key, new YNode.Entry(key, keyLoc, value));
          }
        }
        return new YNode.YMap(at, entries);
      }
      case START_ARRAY -> {
        List<YNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(readValue(parser, problems));
        }
        return new YNode.YList(at, items);
      }
      case VALUE_STRING -> {
        return new YNode.YScalar(at, parser.getText(), YNode.YScalar.Type.STRING);
      }
      case VALUE_NUMBER_INT -> {
        return new YNode.YScalar(at, parser.getText(), YNode.YScalar.Type.INTEGER);
      }
      case VALUE_NUMBER_FLOAT -> {
        return new YNode.YScalar(at, parser.getText(), YNode.YScalar.Type.FLOAT);
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return new YNode.YScalar(at, parser.getText(), YNode.YScalar.Type.BOOLEAN);
      }
      case VALUE_NULL -> {
        return new YNode.YScalar(at, "", YNode.YScalar.Type.NULL);
      }
      default -> {
        // Embedded objects and the like: YAML tags Jackson cannot map. Report, keep going.
        problems.add(at, null, "unsupported YAML value (" + token + ")");
        return new YNode.YScalar(at, "", YNode.YScalar.Type.NULL);
      }
    }
  }

  static Loc loc(JsonLocation location) {
    return new Loc(Math.max(location.getLineNr(), 0), Math.max(location.getColumnNr(), 0));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }
}
