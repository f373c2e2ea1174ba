package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.checkpoint.Checkpoint;
import io.gridway.core.event.Scn;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The snapshot cursor in {@code gridway_checkpoint} (docs/bootstrap.md §6): a table made before the column existed gets
 * it, its rows read back without a cursor; a cursor written with the SCN reads back; the applier's own checkpoint
 * writes (SCN only) leave it as it was.
 */
@Timeout(120)
class SnapshotCursorStoreIT {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void mariaDb() throws Exception {
    try (Targets.Target t = Targets.mariaDb(PrivateMariaDb.shared())) {
      cursorKeptWithTheScn(t);
    }
  }

  @Test
  void postgres() throws Exception {
    try (Targets.Target t = Targets.postgres(PrivatePostgres.shared())) {
      cursorKeptWithTheScn(t);
    }
  }

  private static void cursorKeptWithTheScn(Targets.Target t) throws Exception {
    try (Connection c = t.pool().getConnection(); Statement s = c.createStatement()) {
      s.execute(t.dialect().checkpointDdl()); // as an older release made it: no snapshot_cursor
      s.execute("INSERT INTO gridway_checkpoint VALUES ('old', 0, -1, 5, 1, CURRENT_TIMESTAMP)");
      if (!c.getAutoCommit()) {
        c.commit();
      }
    }
    JdbcCheckpointStore store = new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC());
    assertThat(store.keepsSnapshotCursor()).isTrue();
    assertThat(store.read("old", 0)).singleElement().satisfies(cp -> {
      assertThat(cp.scn().value()).isEqualTo(5);
      assertThat(cp.snapshot()).isNull();
    });
    long generation = store.claim("g", 2);
    store.write(List.of(new Checkpoint("g", 2, Checkpoint.WHOLE, new Scn(100), generation, T, "db.t\n[7,\"x\"]"),
        new Checkpoint("g", 2, 0, new Scn(120), generation, T)));
    assertThat(store.read("g", 2)).filteredOn(Checkpoint::isWhole).singleElement()
        .satisfies(cp -> assertThat(cp.snapshot()).isEqualTo("db.t\n[7,\"x\"]"));
    store.write(List.of(Checkpoint.of("g", 2, new Scn(130), generation, T))); // as the applier writes: SCN only
    assertThat(store.read("g", 2)).filteredOn(Checkpoint::isWhole).singleElement().satisfies(cp -> {
      assertThat(cp.scn().value()).isEqualTo(130);
      assertThat(cp.snapshot()).isEqualTo("db.t\n[7,\"x\"]");
    });
    store.write(List.of(new Checkpoint("g", 2, Checkpoint.WHOLE, new Scn(140), generation, T, Checkpoint.SNAPSHOT_DONE)));
    assertThat(new JdbcCheckpointStore(t.pool(), t.dialect(), Clock.systemUTC()).read("g", 2))
        .filteredOn(Checkpoint::isWhole).singleElement()
        .satisfies(cp -> assertThat(cp.snapshot()).isEqualTo(Checkpoint.SNAPSHOT_DONE));
  }
}
