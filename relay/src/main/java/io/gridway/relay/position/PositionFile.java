package io.gridway.relay.position;

import java.io.IOException;
import io.gridway.core.io.DurableFiles;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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
public final class PositionFile implements PositionStorage {
  private final Path file;

  public PositionFile(Path file) {
    this.file = file.toAbsolutePath();
  }

  public Path path() {
    return file;
  }

  /** The stored state, or null when there is no file yet. */
  @Override
  public PositionState read() throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    }
    try {
      return PositionJson.decode(bytes);
    } catch (IllegalArgumentException e) {
      throw new IOException("position file " + file + " is not valid (" + e.getMessage()
          + "); fix or delete it (the relay then starts from source.mysql.start)", e);
    }
  }

  /** Replaces the file's content atomically and durably. */
  @Override
  public void write(PositionState state) throws IOException {
    DurableFiles.replace(file, PositionJson.encode(state));
  }

  @Override
  public String describe() {
    return "position file " + file;
  }
}
