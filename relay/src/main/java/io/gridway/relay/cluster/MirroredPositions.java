package io.gridway.relay.cluster;

import io.gridway.relay.position.PositionState;
import io.gridway.relay.position.PositionStorage;
import java.io.IOException;

/**
 * A cluster relay that also has a {@code positionFile}: every write goes to the local file, then to ZooKeeper;
 * on start the newer of the two (higher SCN) wins. The file keeps the relay resuming precisely on the same VM
 * while ZooKeeper is away; ZooKeeper lets a replacement VM (an empty disk) resume.
 */
final class MirroredPositions implements PositionStorage {
  private final PositionStorage local;
  private final PositionStorage zk;

  MirroredPositions(PositionStorage local, PositionStorage zk) {
    this.local = local;
    this.zk = zk;
  }

  @Override
  public PositionState read() throws IOException {
    PositionState file = local.read();
    PositionState shared = zk.read();
    if (file == null) {
      return shared;
    }
    if (shared == null) {
      return file;
    }
    return Long.compareUnsigned(shared.last().scn(), file.last().scn()) > 0 ? shared : file;
  }

  /** Writes the file first: if ZooKeeper then fails, the recorder retries both at its next flush. */
  @Override
  public void write(PositionState state) throws IOException {
    local.write(state);
    zk.write(state);
  }

  @Override
  public String describe() {
    return local.describe() + " and " + zk.describe();
  }
}
