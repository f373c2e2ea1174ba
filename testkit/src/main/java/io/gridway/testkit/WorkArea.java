package io.gridway.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The one directory under which every fixture keeps its data directories and pid files: {@code
 * ${java.io.tmpdir}/gridway-testkit}, or the value of the system property {@value #DIR_PROPERTY}.
 *
 * <p>The directory is world-traversable (0755) because PostgreSQL, when the tests run as root, runs
 * as the {@code postgres} OS user and must reach its data directory below it. Keep its path short:
 * Unix socket paths are limited to 107 bytes.
 *
 * <p>Stateless and thread-safe.
 */
final class WorkArea {
  static final String DIR_PROPERTY = "gridway.testkit.dir";

  private WorkArea() {}

  static Path root() {
    String configured = System.getProperty(DIR_PROPERTY);
    Path root =
        configured != null
            ? Path.of(configured)
            : Path.of(System.getProperty("java.io.tmpdir"), "gridway-testkit");
    root = root.toAbsolutePath().normalize();
    try {
      Files.createDirectories(root);
      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the test kit directory " + root, e);
    }
    return root;
  }

  /**
   * Creates a fresh, world-traversable directory for one server instance, e.g. {@code
   * mariadb-1234}.
   */
  static Path newInstanceDir(Path root, String kind) {
    try {
      Path dir = Files.createTempDirectory(root, kind + "-");
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create an instance directory under " + root, e);
    }
  }

  /**
   * Deletes {@code dir} and everything below it, but only if it lies strictly inside {@code root}:
   * the path may come from a pid file on disk, and a damaged file must never make us delete
   * anything else.
   */
  static void deleteTree(Path root, Path dir) {
    Path target = dir.toAbsolutePath().normalize();
    if (!target.startsWith(root) || target.equals(root)) {
      throw new IllegalArgumentException(
          target + " is not inside " + root + "; refusing to delete it");
    }
    try {
      Files.walkFileTree(
          target,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // a server removed it while we walked
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.deleteIfExists(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (NoSuchFileException e) {
      // already gone: nothing to do
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + target, e);
    }
  }
}
