package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.testkit.PrivatePostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gridway parked} with a consumer's own file against a private PostgreSQL target: an empty list, a change parked
 * by an older version (no frames) that replay cannot apply and says so (exit 1), discard by table and key, and the
 * usage errors. Replaying real parked changes is {@code UnfitValuesIT}'s (appliers/jdbc).
 */
class ParkedCommandIT {

  @Test
  void listReplayDiscardWithTheConsumersFile(@TempDir Path dir) throws Exception {
    PrivatePostgres pg = PrivatePostgres.shared();
    String db = pg.createDatabase("parked");
    Path password = dir.resolve("pg.pw");
    Files.writeString(password, pg.password() + "\n");
    Path config = dir.resolve("consumer.yaml");
    Files.writeString(config, """
        consumer:
          source: shop
          group: analytics
          relays: [http://127.0.0.1:1]
          partitions: [0]
        applier:
          jdbc:
            url: %s
            user: %s
            passwordFile: %s
        """.formatted(pg.jdbcUrl(db), pg.user(), password));

    Run empty = Run.of("parked", "list", "--config", config.toString());
    assertThat(empty.code()).as(empty.err()).isZero();
    assertThat(empty.out()).contains("0 parked changes");

    pg.execute(db, "INSERT INTO gridway_dead_letter (\"group\", \"partition\", scn, source_table, target_table, op,"
        + " event_key, reason, event, parked_at) VALUES ('analytics', 2, 77, 'shop.t', 'shop.t', 'INSERT', 'id=5',"
        + " 'a reason', '{\"op\":\"insert\"}', now())");
    Run listed = Run.of("parked", "list", "--config", config.toString(), "--json");
    assertThat(listed.code()).as(listed.err()).isZero();
    assertThat(listed.out()).contains("\"scn\":\"77\"", "\"key\":\"id=5\"", "\"event\":{\"op\":\"insert\"}");

    Run replay = Run.of("parked", "replay", "--config", config.toString(), "--table", "shop.t");
    assertThat(replay.code()).isEqualTo(1);
    assertThat(replay.out()).contains("replayed 0 parked changes").contains("still parked: shop.t id=5 (SCN 77): ")
        .contains("without its frames");

    Run keyAlone = Run.of("parked", "discard", "--config", config.toString(), "--key", "id=5");
    assertThat(keyAlone.code()).isEqualTo(Gridway.USAGE);
    assertThat(keyAlone.err()).contains("--key needs --table");
    Run discard = Run.of("parked", "discard", "--config", config.toString(), "--table", "shop.t", "--key", "id=5");
    assertThat(discard.code()).as(discard.err()).isZero();
    assertThat(discard.out()).contains("discarded 1 parked changes");
    assertThat(Run.of("parked", "list", "--config", config.toString()).out()).contains("0 parked changes");
  }
}
