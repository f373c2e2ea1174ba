package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerRecordTest {
  @TempDir Path root;

  @Test
  void survivesAWriteAndReadWithAndWithoutAServer() throws Exception {
    ServerRecord running =
        new ServerRecord(
            "mariadb",
            root.resolve("mariadb-1"),
            new ProcessId(42, 1000),
            Optional.of(new ProcessId(43, 2000)));
    running.write();
    assertThat(ServerRecord.read(root.resolve("mariadb-1.pid"))).isEqualTo(running);

    ServerRecord stopped = running.withServer(Optional.empty());
    stopped.write();
    assertThat(ServerRecord.read(ServerRecord.fileFor(running.dir()))).isEqualTo(stopped);
  }

  @Test
  void theCurrentProcessIsLiveAndAFinishedOneIsNot() throws Exception {
    assertThat(ProcessId.current().live()).isPresent();
    Process done = new ProcessBuilder("true").start();
    done.waitFor();
    assertThat(new ProcessId(done.pid(), ProcessId.UNKNOWN_START).live()).isEmpty();
  }
}
