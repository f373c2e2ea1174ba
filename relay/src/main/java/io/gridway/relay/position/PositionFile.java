package io.gridway.relay.position;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gridway.core.event.SourcePosition;
import java.io.IOException;
import io.gridway.core.io.DurableFiles;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and atomically replaces the position file (JSON): write a temporary file beside it, fsync it,
 * rename it over the old one, fsync the directory. A crash at any moment leaves either the old or the
 * new content, never a mix. Not thread-safe: one {@link PositionRecorder} writes it.
 *
 * <pre>{@code
 * {"last": {"scn": 4294967301, "timeMillis": 1763791500000, "position": {"kind": "binlog", "file": "mariadb-bin.000001", "offset": 5, "gtidSet": "0-1-9"}},
 *  "history": [ …the same shape, oldest first… ]}
 * }</pre>
 */
public final class PositionFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;

  public PositionFile(Path file) {
    this.file = file.toAbsolutePath();
  }

  public Path path() {
    return file;
  }

  /** The stored state, or null when there is no file yet. */
  public PositionState read() throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    }
    try {
      JsonNode root = JSON.readTree(bytes);
      List<Checkpoint> history = new ArrayList<>();
      for (JsonNode c : root.path("history")) {
        history.add(checkpoint(c));
      }
      return new PositionState(checkpoint(root.get("last")), history);
    } catch (RuntimeException | IOException e) {
      throw new IOException("position file " + file + " is not valid (" + e.getMessage()
          + "); fix or delete it (the relay then starts from source.mysql.start)", e);
    }
  }

  /** Replaces the file's content atomically and durably. */
  public void write(PositionState state) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.set("last", json(state.last()));
    ArrayNode history = root.putArray("history");
    state.history().forEach(c -> history.add(json(c)));
    byte[] bytes = JSON.writeValueAsBytes(root);
    DurableFiles.replace(file, bytes);
  }

  private static ObjectNode json(Checkpoint c) {
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

  private static Checkpoint checkpoint(JsonNode node) {
    JsonNode p = node.get("position");
    String kind = p.get("kind").asText();
    SourcePosition position = switch (kind) {
      case "binlog" -> new SourcePosition.Binlog(p.get("file").asText(), p.get("offset").asLong(), p.path("gtidSet").asText(""));
      case "trail" -> new SourcePosition.Trail(p.get("sequence").asLong(), p.get("rba").asLong());
      case "generated" -> new SourcePosition.Generated(p.get("sequence").asLong());
      default -> throw new IllegalArgumentException("unknown position kind '" + kind + "'");
    };
    return new Checkpoint(node.get("scn").asLong(), position, node.get("timeMillis").asLong());
  }
}
