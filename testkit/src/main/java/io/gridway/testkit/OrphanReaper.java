package io.gridway.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the servers, and deletes the directories, of test JVMs that died without cleaning up (a
 * {@code kill -9}, a crashed fork, a cancelled CI job): a server started by a JVM outlives it.
 *
 * <p>It only ever acts on pid files in the test kit directory whose owning JVM is gone, and only
 * kills a server process whose pid <em>and</em> start time match the record, so it never touches
 * the machine's own database services or a process that reused the pid. Stateless and thread-safe;
 * two JVMs reaping at once is harmless (each step tolerates the other having done it).
 */
final class OrphanReaper {
  static final Duration GRACE = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

  private OrphanReaper() {}

  /** Reaps every orphan under {@code root}; returns the records it cleaned up. */
  static List<ServerRecord> reap(Path root, Duration grace) {
    List<ServerRecord> reaped = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(root, "*.pid")) {
      for (Path file : files) {
        reapOne(root, file, grace).ifPresent(reaped::add);
      }
    } catch (IOException e) {
      LOG.warn("cannot scan {} for orphaned servers", root, e);
    }
    return reaped;
  }

  private static Optional<ServerRecord> reapOne(Path root, Path file, Duration grace) {
    ServerRecord record;
    try {
      record = ServerRecord.read(file);
    } catch (NoSuchFileException e) {
      return Optional.empty(); // its owner (or another reaper) just removed it
    } catch (IOException e) {
      LOG.warn("ignoring unreadable pid file {}: {}", file, e.getMessage());
      return Optional.empty();
    }
    if (record.owner().live().isPresent()) {
      return Optional.empty();
    }
    Optional<ProcessHandle> server = record.server().flatMap(ProcessId::live);
    if (server.isPresent()) {
      LOG.warn(
          "stopping orphaned {} server, pid {}: the JVM {} that started it is gone",
          record.kind(),
          server.get().pid(),
          record.owner().pid());
      // SIGTERM suits both kinds: PostgreSQL's "smart" shutdown is quick once its clients are gone
      Termination.stop(server.get(), Termination.Signal.TERM, grace);
    }
    try {
      WorkArea.deleteTree(root, record.dir());
    } catch (RuntimeException e) {
      // a damaged record or an undeletable file must not stop this JVM's own servers from starting
      LOG.warn("cannot delete the directory of orphaned {} server {}", record.kind(), file, e);
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("cannot delete {}", file, e);
    }
    return Optional.of(record);
  }
}
