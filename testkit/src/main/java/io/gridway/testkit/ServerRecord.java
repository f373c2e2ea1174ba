package io.gridway.testkit;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * The pid file of one server instance: which JVM owns it, which OS process serves it (absent for an
 * in-JVM server such as ZooKeeper, or while it is stopped) and which directory holds its data.
 *
 * <p>Stored as a properties file, {@code <instance-dir-name>.pid}, next to the instance
 * directories. Written atomically (temporary file, then rename), so a concurrent reader sees the
 * old or the new record, never half of one. Immutable.
 */
record ServerRecord(String kind, Path dir, ProcessId owner, Optional<ProcessId> server) {
  ServerRecord withServer(Optional<ProcessId> newServer) {
    return new ServerRecord(kind, dir, owner, newServer);
  }

  static Path fileFor(Path instanceDir) {
    return instanceDir.resolveSibling(instanceDir.getFileName() + ".pid");
  }

  void write() {
    Properties p = new Properties();
    p.setProperty("kind", kind);
    p.setProperty("dir", dir.toString());
    p.setProperty("owner.pid", Long.toString(owner.pid()));
    p.setProperty("owner.start", Long.toString(owner.startMillis()));
    server.ifPresent(
        s -> {
          p.setProperty("server.pid", Long.toString(s.pid()));
          p.setProperty("server.start", Long.toString(s.startMillis()));
        });
    Path file = fileFor(dir);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        p.store(w, "gridway-testkit server; deleted when the server is closed");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  static ServerRecord read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    try {
      Optional<ProcessId> server =
          p.containsKey("server.pid")
              ? Optional.of(
                  new ProcessId(
                      Long.parseLong(p.getProperty("server.pid")),
                      Long.parseLong(p.getProperty("server.start"))))
              : Optional.empty();
      return new ServerRecord(
          required(p, "kind"),
          Path.of(required(p, "dir")),
          new ProcessId(
              Long.parseLong(required(p, "owner.pid")), Long.parseLong(required(p, "owner.start"))),
          server);
    } catch (NumberFormatException e) {
      throw new IOException("malformed pid file " + file + ": " + e.getMessage(), e);
    }
  }

  private static String required(Properties p, String key) throws IOException {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IOException("pid file lacks '" + key + "'");
    }
    return value;
  }
}
