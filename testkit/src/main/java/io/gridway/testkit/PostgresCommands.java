package io.gridway.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of a private PostgreSQL: {@code initdb} and {@code postgres} with {@code
 * wal_level=logical}, run as the {@code postgres} OS user when the tests run as root (PostgreSQL
 * refuses to run as root). Stateless and thread-safe.
 *
 * <p>Settings are given on the command line rather than in {@code postgresql.conf}, so a restart
 * starts exactly the same server.
 */
final class PostgresCommands {
  static final String OS_USER = "postgres";
  static final String SUPERUSER = "postgres";

  private PostgresCommands() {}

  static Path dataDir(Path instanceDir) {
    return instanceDir.resolve("data");
  }

  static Path serverLog(Path instanceDir) {
    return instanceDir.resolve("postgres.log");
  }

  static Path initdbLog(Path instanceDir) {
    return instanceDir.resolve("initdb.log");
  }

  static List<String> initdb(Path binDir, Path instanceDir) {
    return asServerUser(
        List.of(
            binDir.resolve("initdb").toString(),
            "--pgdata=" + dataDir(instanceDir),
            "--username=" + SUPERUSER,
            "--auth=trust", // loopback-only test server; pg_hba also lets replication connections
                            // in
            "--encoding=UTF8",
            "--no-locale", // the C locale exists everywhere, unlike C.UTF-8 or en_US.UTF-8
            "--no-sync"));
  }

  /**
   * Copies the certificate and key into the data directory (owned by the server's OS user, the key 0600, as
   * PostgreSQL demands) and lets TCP clients in only over TLS.
   */
  static void installTls(Path instanceDir, ServerTlsFiles tls) {
    Path data = dataDir(instanceDir);
    try {
      Files.copy(tls.certFile(), data.resolve("server.crt"), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(tls.keyFile(), data.resolve("server.key"), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(tls.caFile(), data.resolve("root.crt"), StandardCopyOption.REPLACE_EXISTING);
      Files.setPosixFilePermissions(data.resolve("server.key"), PosixFilePermissions.fromString("rw-------"));
      if (OsUser.isRoot()) {
        for (String file : List.of("server.crt", "server.key", "root.crt")) {
          OsUser.chown(data.resolve(file), OS_USER);
        }
      }
      Path hba = data.resolve("pg_hba.conf");
      String rules = Files.readString(hba).lines()
          .map(line -> line.startsWith("host ") ? "hostssl " + line.substring("host ".length()) : line)
          .reduce("", (a, b) -> a + b + "\n");
      Files.writeString(hba, rules);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set up TLS in " + data, e);
    }
  }

  static List<String> server(Path binDir, Path instanceDir, int port, boolean tls) {
    List<String> command = new ArrayList<>(
        List.of(
            binDir.resolve("postgres").toString(),
            "-D",
            dataDir(instanceDir).toString(),
            "-p",
            Integer.toString(port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "unix_socket_directories=" + instanceDir,
            "-c",
            "wal_level=logical",
            "-c",
            "max_wal_senders=10",
            "-c",
            "max_replication_slots=10",
            "-c",
            "max_connections=100",
            "-c",
            "shared_buffers=32MB",
            // no fsync: only an OS crash could lose data. synchronous_commit stays on, so a commit
            // is written
            // to the OS before it returns and a killed server keeps every commit its clients saw.
            "-c",
            "fsync=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "logging_collector=off"));
    if (tls) {
      command.addAll(List.of("-c", "ssl=on", "-c", "ssl_cert_file=server.crt", "-c", "ssl_key_file=server.key",
          "-c", "ssl_ca_file=root.crt"));
    }
    return asServerUser(command);
  }

  static List<String> asServerUser(List<String> command) {
    return OsUser.isRoot() ? OsUser.runAs(OS_USER, command) : command;
  }
}
