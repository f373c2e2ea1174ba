package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The distribution built by this module's {@code package} phase, unpacked for a test, and its {@code bin/gridway}. */
final class Tarball {
  private Tarball() {}

  /** Unpacks {@code target/gridway-*.tar.gz} into {@code dir}; returns the unpacked home. */
  static Path unpack(Path dir) throws Exception {
    Path tarball;
    try (var files = Files.list(Path.of("target"))) {
      tarball = files.filter(f -> f.getFileName().toString().matches("gridway-.*\\.tar\\.gz")).findFirst().orElseThrow();
    }
    Process tar = new ProcessBuilder("tar", "-xzf", tarball.toAbsolutePath().toString(), "-C", dir.toString()).inheritIO().start();
    assertThat(tar.waitFor()).isZero();
    try (var unpacked = Files.list(dir)) {
      return unpacked.filter(f -> Files.isDirectory(f) && f.getFileName().toString().startsWith("gridway-")).findFirst()
          .orElseThrow();
    }
  }

  /** {@code home/bin/gridway args}, output and errors merged, logs under {@code dir}, a small heap. */
  static ProcessBuilder gridway(Path home, Path dir, String... args) {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/gridway").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("GRIDWAY_LOG_DIR", dir.resolve("logs").toString());
    builder.environment().put("GRIDWAY_DIRECT", "512m");
    builder.environment().put("GRIDWAY_HEAP", "256m");
    return builder;
  }
}
