package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkAreaTest {
  @TempDir Path root;

  @Test
  void deletesAnInstanceDirectoryWithItsContents() throws Exception {
    Path dir = WorkArea.newInstanceDir(root, "mariadb");
    Files.createDirectories(dir.resolve("data/sub"));
    Files.writeString(dir.resolve("data/sub/file"), "x");

    WorkArea.deleteTree(root, dir);

    assertThat(dir).doesNotExist();
    assertThat(root).exists();
  }

  @Test
  void refusesToDeleteAnythingOutsideItsRoot() {
    assertThatThrownBy(() -> WorkArea.deleteTree(root, root.resolve("../elsewhere")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WorkArea.deleteTree(root, root))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aMissingBinaryNamesTheDebianPackageToInstall() {
    assertThatThrownBy(
            () -> Binaries.firstExecutable("mariadb-server", Path.of("/nonexistent/mariadbd")))
        .hasMessageContaining("apt-get install mariadb-server");
  }
}
