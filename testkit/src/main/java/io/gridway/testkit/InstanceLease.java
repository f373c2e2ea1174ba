package io.gridway.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One server instance's claim on the test kit directory: its own data directory plus the pid file
 * that lets a later JVM reap it if this JVM dies first (see {@link OrphanReaper}).
 *
 * <p>Acquiring a lease first reaps the orphans of dead JVMs. Thread-safe: record updates are
 * synchronized.
 */
final class InstanceLease {
  private final Path root;
  private ServerRecord record;

  private InstanceLease(Path root, ServerRecord record) {
    this.root = root;
    this.record = record;
  }

  static InstanceLease acquire(String kind) {
    Path root = WorkArea.root();
    OrphanReaper.reap(root, OrphanReaper.GRACE);
    Path dir = WorkArea.newInstanceDir(root, kind);
    ServerRecord record = new ServerRecord(kind, dir, ProcessId.current(), Optional.empty());
    // written before any server starts, so that even a JVM dying mid-start leaves nothing unowned
    record.write();
    return new InstanceLease(root, record);
  }

  Path dir() {
    return record.dir();
  }

  synchronized void serverRunning(ProcessHandle server) {
    record = record.withServer(Optional.of(ProcessId.of(server)));
    record.write();
  }

  synchronized void serverStopped() {
    record = record.withServer(Optional.empty());
    record.write();
  }

  /** Deletes the data directory and the pid file; the server must already be stopped. */
  synchronized void release() {
    WorkArea.deleteTree(root, record.dir());
    try {
      Files.deleteIfExists(ServerRecord.fileFor(record.dir()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the pid file of " + record.dir(), e);
    }
  }
}
