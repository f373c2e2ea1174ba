package io.gridway.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of a private MariaDB: {@code mariadb-install-db} and {@code mariadbd} with the
 * binlog on, in the layout of one instance directory. Stateless and thread-safe.
 *
 * <p>{@code --no-defaults} keeps the machine's {@code /etc/mysql} configuration (and so its port
 * 3306, socket and data directory) out of the private server.
 */
final class MariaDbCommands {
  private MariaDbCommands() {}

  static Path dataDir(Path instanceDir) {
    return instanceDir.resolve("data");
  }

  static Path serverLog(Path instanceDir) {
    return instanceDir.resolve("mariadbd.log");
  }

  static Path installLog(Path instanceDir) {
    return instanceDir.resolve("install.log");
  }

  static List<String> install(Path instanceDir) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Binaries.mariadbInstallDb().toString(),
                "--no-defaults", // must come first
                "--datadir=" + dataDir(instanceDir),
                "--auth-root-authentication-method=normal", // a password over TCP, not unix_socket
                "--skip-test-db",
                "--skip-name-resolve"));
    command.addAll(sharedStorageOptions());
    command.addAll(asRootOption());
    return command;
  }

  static List<String> server(Path instanceDir, int port, int serverId, ServerTlsFiles tls, List<String> extraOptions) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Binaries.mariadbd().toString(),
                "--no-defaults", // must come first
                "--datadir=" + dataDir(instanceDir),
                "--socket=" + instanceDir.resolve("mariadbd.sock"),
                "--pid-file=" + instanceDir.resolve("mariadbd.pid"),
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--skip-name-resolve",
                "--log-bin=" + dataDir(instanceDir).resolve("mariadb-bin"),
                "--server-id=" + serverId,
                "--binlog-format=ROW",
                "--binlog-row-image=FULL",
                "--binlog-row-metadata=FULL",
                // written to the OS at each commit, never fsynced: a killed server keeps every
                // commit its
                // clients saw, only an OS crash could lose data
                "--innodb-flush-log-at-trx-commit=2",
                "--sync-binlog=0",
                "--performance-schema=OFF",
                "--character-set-server=utf8mb4"));
    command.addAll(sharedStorageOptions());
    command.addAll(asRootOption());
    if (tls != null) {
      command.addAll(List.of("--ssl-cert=" + tls.certFile(), "--ssl-key=" + tls.keyFile(), "--ssl-ca=" + tls.caFile(),
          "--require-secure-transport=ON"));
    }
    command.addAll(extraOptions); // last: an extra option overrides a default above
    return command;
  }

  // install-db and the server must agree on the InnoDB log size; small sizes make both start faster
  private static List<String> sharedStorageOptions() {
    return List.of("--innodb-buffer-pool-size=32M", "--innodb-log-file-size=16M");
  }

  private static List<String> asRootOption() {
    return OsUser.isRoot() ? List.of("--user=root") : List.of();
  }
}
