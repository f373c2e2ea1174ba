package io.gridway.relay.mysql;

import io.gridway.testkit.PrivateMariaDb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/** Helpers around a private MariaDB and relay YAML for the relay ITs. */
final class Db {
  private static final AtomicLong SERVER_IDS = new AtomicLong(7000 + (ProcessHandle.current().pid() % 1000) * 50);

  private Db() {}

  static long nextServerId() {
    return SERVER_IDS.incrementAndGet();
  }

  /** {@code file:offset} of the server's binlog end now. */
  static String endOfBinlog(PrivateMariaDb db) throws SQLException {
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      return rs.getString(1) + ":" + rs.getLong(2);
    }
  }

  /**
   * The {@code source:} section and friends of a relay config reading {@code database.*} (or the
   * given tables) from the binlog end now, with quick heartbeats and reconnects.
   */
  static String relayYaml(PrivateMariaDb db, Path dir, String sourceId, String start, String include, String more) {
    Path password = dir.resolve("repl.pw");
    try {
      Files.writeString(password, db.replicationPassword() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return """
        source:
          partitions: 4
          mysql:
            source: %s
            host: %s
            port: %d
            user: %s
            passwordFile: %s
            serverId: %d
            start: %s
            include: [%s]
            heartbeatInterval: 300ms
            reconnectBackoffMax: 300ms
        http:
          port: 0
          ioThreads: 1
        """.formatted(sourceId, db.host(), db.port(), db.replicationUser(), password, nextServerId(), start, include) + more;
  }

  /** Replaces a file atomically (so a policy watcher never sees half of it). */
  static void replace(Path file, String content) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".new");
    Files.writeString(temp, content);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
