package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OrphanReaperIT {
  private static final Duration SHORT_GRACE = Duration.ofMillis(300);
  private Process stray;

  @AfterEach
  void killStray() {
    if (stray != null) {
      stray.destroyForcibly();
    }
  }

  @Test
  void stopsTheServerOfADeadJvmAndDeletesItsDirectory() throws Exception {
    try (PrivateMariaDb db = PrivateMariaDb.dedicated()) {
      Path dir = db.dataDir().getParent();
      ServerRecord record = ServerRecord.read(ServerRecord.fileFor(dir));
      ProcessHandle server = record.server().flatMap(ProcessId::live).orElseThrow();
      new ServerRecord(record.kind(), dir, deadProcess(), record.server()).write();

      assertThat(OrphanReaper.reap(WorkArea.root(), OrphanReaper.GRACE))
          .extracting(ServerRecord::dir)
          .contains(dir);

      assertThat(server.isAlive()).isFalse();
      assertThat(dir).doesNotExist();
      assertThat(ServerRecord.fileFor(dir)).doesNotExist();
    }
  }

  @Test
  void killsAnOrphanThatIgnoresSigterm() throws Exception {
    stray = new ProcessBuilder("sh", "-c", "trap '' TERM; exec sleep 600").start();
    Path dir = orphanDir(deadProcess(), Optional.of(ProcessId.of(stray.toHandle())));

    OrphanReaper.reap(WorkArea.root(), SHORT_GRACE);

    assertThat(stray.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(dir).doesNotExist();
  }

  @Test
  void leavesTheServersOfLiveJvmsAlone() throws Exception {
    stray = new ProcessBuilder("sleep", "600").start();
    Path dir = orphanDir(ProcessId.current(), Optional.of(ProcessId.of(stray.toHandle())));
    try {
      OrphanReaper.reap(WorkArea.root(), SHORT_GRACE);

      assertThat(stray.isAlive()).isTrue();
      assertThat(dir).exists();
    } finally {
      WorkArea.deleteTree(WorkArea.root(), dir);
      Files.delete(ServerRecord.fileFor(dir));
    }
  }

  @Test
  void neverKillsAProcessThatReusedTheRecordedPid() throws Exception {
    stray = new ProcessBuilder("sleep", "600").start();
    ProcessId samePidOtherStart =
        new ProcessId(stray.pid(), ProcessId.of(stray.toHandle()).startMillis() - 60_000);
    Path dir = orphanDir(deadProcess(), Optional.of(samePidOtherStart));

    OrphanReaper.reap(WorkArea.root(), SHORT_GRACE);

    assertThat(stray.isAlive()).isTrue();
    assertThat(dir).doesNotExist();
  }

  private static Path orphanDir(ProcessId owner, Optional<ProcessId> server) throws IOException {
    Path dir = WorkArea.newInstanceDir(WorkArea.root(), "orphan-test");
    Files.writeString(dir.resolve("some-data"), "x");
    new ServerRecord("test", dir, owner, server).write();
    return dir;
  }

  /** A process that has exited: the owner a crashed JVM leaves behind. */
  private static ProcessId deadProcess() throws Exception {
    Process process = new ProcessBuilder("true").start();
    ProcessId id = ProcessId.of(process.toHandle());
    assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue();
    return id;
  }
}
