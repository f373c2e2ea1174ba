package io.gridway.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file's content so that a crash (kill -9, power loss) leaves either the old content or
 * the new, never a mix or an empty file: checkpoints and relay positions depend on it. Stateless and
 * thread-safe; concurrent writers of one file must be serialised by the caller.
 */
public final class DurableFiles {
  private DurableFiles() {}

  /**
   * Writes {@code content} to a temporary sibling, forces it to disk, renames it over {@code target}
   * atomically, then forces the directory so that the rename itself survives a crash.
   *
   * @throws IOException also when the file system cannot rename atomically
   */
  public static void replace(Path target, byte[] content) throws IOException {
    Path absolute = target.toAbsolutePath();
    Path temp = absolute.resolveSibling(absolute.getFileName() + ".tmp");
    try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        out.write(buf);
      }
      out.force(true);
    }
    try {
      Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system of " + absolute + " cannot rename atomically", e);
    }
    try (FileChannel directory = FileChannel.open(absolute.getParent(), StandardOpenOption.READ)) {
      directory.force(true);
    }
  }
}
