package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** {@code start:} of a consumer group (docs/bootstrap.md §5) and what the puller asks the relay with it. */
class StartPositionTest {
  private static final URI RELAY = URI.create("http://127.0.0.1:1");

  @Test
  void latestAsksForTheRelaysNewestScnUntilTheStreamHasOne() {
    ConsumerConfig config = ConsumerConfig.builder("src").relay(RELAY.toString()).start("latest").build();
    assertThat(config.startsLatest()).isTrue();
    Puller.PullTarget target = new Puller.PullTarget("src", 0, null, config.pull(), 0, null, config.startOpening());
    assertThat(EventsRequest.uri(RELAY, target, 0)).contains("since=latest");
    assertThat(EventsRequest.uri(RELAY, target, 42)).contains("since=42"); // a heartbeat or window gave a position
    assertThat(EventsRequest.uri(RELAY, new Puller.PullTarget("src", 0, null, config.pull(), 0, null), 0))
        .contains("since=0");
  }

  @Test
  void timeAsksTheRelayForTheScnBeforeTheFirstCommitAtOrAfterItInUtc() {
    ConsumerConfig config = ConsumerConfig.builder("src").relay(RELAY.toString()).start("time:2026-11-26T09:15:00+01:00")
        .build();
    assertThat(config.startOpening()).isEqualTo("time:2026-11-26T08:15:00Z");
    assertThat(config.startScn()).isZero();
    Puller.PullTarget target = new Puller.PullTarget("src", 0, null, config.pull(), 0, null, config.startOpening());
    assertThat(EventsRequest.uri(RELAY, target, 0)).contains("since=time%3A2026-11-26T08%3A15%3A00Z");
    assertThat(EventsRequest.uri(RELAY, target, 42)).contains("since=42");
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).start("scn:5").build().startOpening()).isNull();
  }

  @Test
  void startIsEarliestByDefaultOrAnScn() {
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).build().startScn()).isZero();
    ConsumerConfig at = ConsumerConfig.builder("src").relay(RELAY.toString()).start("scn:18446744073709551615").build();
    assertThat(at.startScn()).isEqualTo(-1L); // unsigned
    assertThat(at.startsLatest()).isFalse();
  }

  @Test
  void snapshotLoadsTheListedTables() {
    ConsumerConfig config = ConsumerConfig.builder("src").relay(RELAY.toString()).start("snapshot")
        .snapshot(new ConsumerConfig.Snapshot(java.util.List.of("db.a", "db.b"), 500, null)).build();
    assertThat(config.startsWithSnapshot()).isTrue();
    assertThat(config.startsLatest()).isFalse();
    assertThat(config.snapshot().chunkBytes().bytes()).isEqualTo(4L << 20);
    // a store that cannot keep the cursor with the SCN would restart the snapshot from scratch after every kill
    assertThatThrownBy(() -> GridwayConsumer.builder(config).checkpointStore(new RecordingStore())
        .handler(batch -> { }).build()).hasMessageContaining("start: snapshot needs a checkpoint store")
        .hasMessageContaining("RecordingStore");
    GridwayConsumer.builder(config).checkpointStore(new io.gridway.consumer.checkpoint.MemoryCheckpointStore())
        .handler(batch -> { }).build().close();
  }

  @Test
  void aBadStartNamesTheKeyAndWhatIsNotBuiltYet() {
    assertThatThrownBy(() -> ConsumerConfig.builder("src").relay(RELAY.toString()).start("newest").build())
        .hasMessageStartingWith("start: must be earliest, latest, snapshot, scn:N or time:T");
    assertThatThrownBy(() -> ConsumerConfig.builder("src").relay(RELAY.toString()).start("time:yesterday")
        .build()).hasMessageStartingWith("start: time:T needs an ISO-8601 instant").hasMessageContaining("'time:yesterday'");
    // stream mode loads too: the stream stops reading while a chunk request is out (Puller)
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).start("snapshot")
        .snapshot(new ConsumerConfig.Snapshot(java.util.List.of("db.t"), null, null)).mode(ConsumerConfig.Mode.STREAM)
        .build().startsWithSnapshot()).isTrue();
    assertThatThrownBy(() -> new ConsumerConfig.Snapshot(java.util.List.of("nodot"), null, null))
        .hasMessageContaining("snapshot.tables: 'nodot' is not db.table");
    assertThatThrownBy(() -> new ConsumerConfig.Snapshot(java.util.List.of("d.t"), 0, null))
        .hasMessageContaining("snapshot.chunkRows");
    assertThatThrownBy(() -> ConsumerConfig.builder("src").relay(RELAY.toString()).start("scn:-3").build())
        .hasMessageContaining("unsigned decimal SCN");
  }

  @Test
  void theLoadsKnobsAreCheckedAtLoadNamingTheKey() {
    ConsumerConfig.Snapshot defaults = new ConsumerConfig.Snapshot(java.util.List.of("d.t"), null, null);
    assertThat(defaults.readAhead()).isEqualTo(2);
    assertThat(defaults.throttled()).isFalse();
    assertThatThrownBy(() -> new ConsumerConfig.Snapshot(java.util.List.of("d.t"), null, null, 0, null))
        .hasMessageStartingWith("snapshot.readAhead: 1..8");
    assertThatThrownBy(() -> new ConsumerConfig.Snapshot(java.util.List.of("d.t"), null, null, 9, null))
        .hasMessageStartingWith("snapshot.readAhead: 1..8");
    // bounded in bytes: the chunks read ahead wait in the partition buffer
    ConsumerConfig.Snapshot ahead = new ConsumerConfig.Snapshot(java.util.List.of("d.t"), null,
        io.gridway.core.config.ByteSize.ofMebibytes(16), 3, io.gridway.core.config.ByteSize.ofMebibytes(8));
    assertThat(ahead.throttled()).isTrue();
    assertThatThrownBy(() -> ConsumerConfig.builder("src").relay(RELAY.toString()).start("snapshot").snapshot(ahead)
        .build()).hasMessageStartingWith("snapshot.readAhead: 3 chunks of snapshot.chunkBytes")
        .hasMessageContaining("pull.bufferBytes");
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).start("snapshot").snapshot(ahead)
        .bufferBytes(48L << 20).build().snapshot().readAhead()).isEqualTo(3);
    assertThat(ahead.withTables(java.util.List.of("d.u")).readAhead()).isEqualTo(3);
  }

  @Test
  void snapshotWithoutTablesLoadsWhatTheRelayCaptures() {
    ConsumerConfig starting = ConsumerConfig.builder("src").relay(RELAY.toString()).start("snapshot").build();
    assertThat(starting.startsWithSnapshot()).isTrue();
    assertThat(starting.snapshot().tables()).isEmpty(); // resolved from the relay when the partition starts
    assertThat(starting.snapshot().chunkRows()).isEqualTo(2000);
    assertThat(starting.onEvicted()).isEqualTo("snapshot");
    ConsumerConfig reseeding = ConsumerConfig.builder("src").relay(RELAY.toString()).onEvicted("snapshot").build();
    assertThat(reseeding.reseedsOnEviction()).isTrue();
    assertThat(reseeding.snapshot().tables()).isEmpty();
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).snapshot(new ConsumerConfig.Snapshot(null, 500,
        null)).build().onEvicted()).isEqualTo("snapshot");
  }

  @Test
  void onEvictedDefaultsToSnapshotWhenThereAreTablesToLoadElseStop() {
    ConsumerConfig.Snapshot tables = new ConsumerConfig.Snapshot(java.util.List.of("db.t"), null, null);
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).build().onEvicted()).isEqualTo("stop");
    ConsumerConfig reseeding = ConsumerConfig.builder("src").relay(RELAY.toString()).snapshot(tables).build();
    assertThat(reseeding.onEvicted()).isEqualTo("snapshot"); // start: earliest, re-seeded when evicted
    assertThat(reseeding.reseedsOnEviction()).isTrue();
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).snapshot(tables).mode(ConsumerConfig.Mode.STREAM)
        .build().onEvicted()).isEqualTo("snapshot");
    assertThat(ConsumerConfig.builder("src").relay(RELAY.toString()).snapshot(tables).onEvicted("stop").build()
        .reseedsOnEviction()).isFalse();
    assertThatThrownBy(() -> ConsumerConfig.builder("src").relay(RELAY.toString()).onEvicted("wait").build())
        .hasMessageStartingWith("onEvicted: must be snapshot or stop");
    // a re-seed interrupted by a kill must resume from its cursor: a store that cannot keep it is refused
    assertThatThrownBy(() -> GridwayConsumer.builder(reseeding).checkpointStore(new RecordingStore())
        .handler(batch -> { }).build()).hasMessageContaining("onEvicted: snapshot needs a checkpoint store")
        .hasMessageContaining("RecordingStore");
  }
}
