package io.gridway.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds the server binaries installed by the Debian packages, and says which package to install
 * when they are missing. Stateless and thread-safe.
 */
final class Binaries {
  private static final Path POSTGRES_VERSIONS = Path.of("/usr/lib/postgresql");

  private Binaries() {}

  static Path mariadbd() {
    return firstExecutable(
        "mariadb-server", Path.of("/usr/sbin/mariadbd"), Path.of("/usr/sbin/mysqld"));
  }

  static Path mariadbInstallDb() {
    return firstExecutable(
        "mariadb-server",
        Path.of("/usr/bin/mariadb-install-db"),
        Path.of("/usr/bin/mysql_install_db"));
  }

  /**
   * The newest {@code /usr/lib/postgresql/<major>/bin} holding {@code initdb} and {@code postgres},
   * else what {@code pg_config --bindir} says.
   */
  static Path postgresBinDir() {
    List<Path> candidates = new ArrayList<>();
    if (Files.isDirectory(POSTGRES_VERSIONS)) {
      try (DirectoryStream<Path> versions = Files.newDirectoryStream(POSTGRES_VERSIONS)) {
        for (Path version : versions) {
          if (version.getFileName().toString().matches("\\d+(\\.\\d+)?")) {
            candidates.add(version.resolve("bin"));
          }
        }
      } catch (IOException e) {
        // fall through to pg_config
      }
    }
    candidates.sort(
        Comparator.comparingDouble(
                (Path bin) -> Double.parseDouble(bin.getParent().getFileName().toString()))
            .reversed());
    pgConfigBinDir().ifPresent(candidates::add);
    return candidates.stream()
        .filter(
            bin ->
                Files.isExecutable(bin.resolve("initdb"))
                    && Files.isExecutable(bin.resolve("postgres")))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "PostgreSQL server binaries (initdb, postgres) not found under "
                        + POSTGRES_VERSIONS
                        + "/*/bin nor in pg_config --bindir. Install the Debian package postgresql"
                        + " (apt-get install postgresql)."));
  }

  private static Optional<Path> pgConfigBinDir() {
    try {
      Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0
          ? Optional.of(Path.of(out))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // no pg_config on the PATH
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running pg_config", e);
    }
  }

  static Path firstExecutable(String debianPackage, Path... candidates) {
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "none of "
            + List.of(candidates)
            + " is installed. Install the Debian package "
            + debianPackage
            + " (apt-get install "
            + debianPackage
            + ").");
  }
}
