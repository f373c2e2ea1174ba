package io.gridway.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFilesTest {

  @Test
  void replacesContentAndLeavesNoTemporaryFileBehind(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("checkpoint.json");
    DurableFiles.replace(file, "first".getBytes(StandardCharsets.UTF_8));
    DurableFiles.replace(file, "second, longer".getBytes(StandardCharsets.UTF_8));

    assertThat(Files.readString(file)).isEqualTo("second, longer");
    try (var listing = Files.list(dir)) {
      assertThat(listing).containsExactly(file);
    }
  }

  @Test
  void aStaleTemporaryFileFromACrashIsOverwritten(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("position.json");
    Files.writeString(dir.resolve("position.json.tmp"), "half-written garbage from a crashed writer, longer than the new content");
    DurableFiles.replace(file, "ok".getBytes(StandardCharsets.UTF_8));

    assertThat(Files.readString(file)).isEqualTo("ok");
  }
}
