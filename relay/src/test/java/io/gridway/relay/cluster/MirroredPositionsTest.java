package io.gridway.relay.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.SourcePosition;
import io.gridway.relay.position.StoredPosition;
import io.gridway.relay.position.PositionFile;
import io.gridway.relay.position.PositionState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mirror of a local file and the shared store (here a second file standing where ZooKeeper is: same contract). */
class MirroredPositionsTest {
  @TempDir Path dir;

  private static PositionState at(long scn) {
    return new PositionState(new StoredPosition(scn, new SourcePosition.Binlog("mariadb-bin.000002", scn * 10, ""), scn), List.of());
  }

  @Test
  void writesBothAndReadsTheNewer() throws Exception {
    PositionFile local = new PositionFile(dir.resolve("local.json"));
    PositionFile shared = new PositionFile(dir.resolve("shared.json"));
    MirroredPositions mirror = new MirroredPositions(local, shared);
    assertThat(mirror.read()).isNull();

    mirror.write(at(5));
    assertThat(local.read()).isEqualTo(at(5));
    assertThat(shared.read()).isEqualTo(at(5));

    shared.write(at(9)); // another VM of the same relay went further: a replacement resumes from the shared one
    assertThat(mirror.read()).isEqualTo(at(9));
    local.write(at(12)); // ZooKeeper was away for the last writes: the local file is newer
    assertThat(mirror.read()).isEqualTo(at(12));
  }

  @Test
  void anEmptyDiskResumesFromTheSharedPosition() throws Exception {
    PositionFile shared = new PositionFile(dir.resolve("shared.json"));
    shared.write(at(7));
    assertThat(new MirroredPositions(new PositionFile(dir.resolve("new-vm.json")), shared).read()).isEqualTo(at(7));
  }
}
