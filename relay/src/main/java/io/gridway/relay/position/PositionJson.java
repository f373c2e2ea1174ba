package io.gridway.relay.position;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of a {@link PositionState}, the same wherever it is stored (see {@link PositionFile} for
 * its shape). Stateless.
 */
public final class PositionJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PositionJson() {}

  public static byte[] encode(PositionState state) {
    ObjectNode root = JSON.createObjectNode();
    root.set("last", json(state.last()));
    ArrayNode history = root.putArray("history");
    state.history().forEach(c -> history.add(json(c)));
    try {
      return JSON.writeValueAsBytes(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode a position state", e); // a tree of plain values always encodes
    }
  }

  /** @throws IllegalArgumentException naming what is wrong when {@code bytes} is not a position state */
  public static PositionState decode(byte[] bytes) {
    try {
      JsonNode root = JSON.readTree(bytes);
      List<StoredPosition> history = new ArrayList<>();
      for (JsonNode c : root.path("history")) {
        history.add(checkpoint(c));
      }
      return new PositionState(checkpoint(root.get("last")), history);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
    }
  }

  private static ObjectNode json(StoredPosition c) {
    ObjectNode node = JSON.createObjectNode();
    node.put("scn", c.scn());
    node.put("timeMillis", c.timeMillis());
    ObjectNode p = node.putObject("position");
    if (c.position() instanceof SourcePosition.Binlog b) {
      p.put("kind", "binlog");
      p.put("file", b.file());
      p.put("offset", b.offset());
      p.put("gtidSet", b.gtidSet());
    } else if (c.position() instanceof SourcePosition.Trail t) {
      p.put("kind", "trail");
      p.put("sequence", t.sequence());
      p.put("rba", t.rba());
    } else if (c.position() instanceof SourcePosition.Generated g) {
      p.put("kind", "generated");
      p.put("sequence", g.sequence());
    }
    return node;
  }

  private static StoredPosition checkpoint(JsonNode node) {
    JsonNode p = node.get("position");
    String kind = p.get("kind").asText();
    SourcePosition position = switch (kind) {
      case "binlog" -> new SourcePosition.Binlog(p.get("file").asText(), p.get("offset").asLong(), p.path("gtidSet").asText(""));
      case "trail" -> new SourcePosition.Trail(p.get("sequence").asLong(), p.get("rba").asLong());
      case "generated" -> new SourcePosition.Generated(p.get("sequence").asLong());
      default -> throw new IllegalArgumentException("unknown position kind '" + kind + "'");
    };
    return new StoredPosition(node.get("scn").asLong(), position, node.get("timeMillis").asLong());
  }
}
