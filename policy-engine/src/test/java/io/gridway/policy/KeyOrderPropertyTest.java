package io.gridway.policy;

import static io.gridway.policy.Fixtures.AUDIT;
import static io.gridway.policy.Fixtures.COMMIT_MICROS;
import static io.gridway.policy.Fixtures.ORDERS;
import static io.gridway.policy.Fixtures.order;
import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The per-key guarantee, as a property: a random workload of inserts, updates that keep or move
 * their key, deletes, TRUNCATEs and keyless rows, routed by key hash, and each partition's stream
 * replayed on its own (as an independent consumer would) — every replay is consistent (an UPDATE or
 * DELETE finds exactly the row its before image says, an INSERT finds its key free), no key lives in
 * two partitions, and the union of the partitions' tables is the source's table.
 */
class KeyOrderPropertyTest {

  @Property(tries = 300)
  void eachPartitionReplayedAloneEndsWithItsKeysExactlyAsTheSource(@ForAll long seed, @ForAll @IntRange(min = 2, max = 8) int buckets) {
    Policy policy = Fixtures.policy("name: p\nversion: 1\nrules:\n  - name: k\n    partition: {key-hash: " + buckets + "}\n");
    Random random = new Random(seed);
    Map<Long, Row> source = new HashMap<>();
    List<Row> sourceAudit = new ArrayList<>();
    List<Transaction> published = new ArrayList<>();
    long position = 4;
    for (int t = 0; t < 60; t++) {
      Scn scn = Scn.ofBinlog(1, position += 100);
      List<ChangeEvent> events = new ArrayList<>();
      if (random.nextInt(30) == 0) {
        events.add(new ChangeEvent(ORDERS, Operation.TRUNCATE, null, null, null, scn, COMMIT_MICROS, 0, ""));
        source.clear();
      } else {
        for (int e = 1 + random.nextInt(8); e > 0; e--) {
          events.add(change(random, source, sourceAudit, scn));
        }
      }
      Transaction out = policy.fetch().apply(new Transaction(scn, COMMIT_MICROS, null, "", events));
      published.add(out);
    }

    Map<Long, Integer> home = new HashMap<>();
    Map<Long, Row> union = new HashMap<>();
    List<Row> auditUnion = new ArrayList<>();
    for (int p = 0; p < buckets; p++) {
      Map<Long, Row> replica = new HashMap<>();
      for (Transaction tx : published) {
        for (ChangeEvent e : tx.events()) {
          if (e.partition() != p) {
            continue;
          }
          if (e.schema() == AUDIT) {
            auditUnion.add(e.after());
            continue;
          }
          switch (e.op()) {
            case INSERT -> assertThat(replica.put(key(e.after()), e.after())).as("insert finds its key free").isNull();
            case UPDATE -> {
              assertThat(replica.remove(key(e.before()))).as("update finds its before image").isEqualTo(e.before());
              assertThat(replica.put(key(e.after()), e.after())).as("update's new key is free").isNull();
            }
            case DELETE -> assertThat(replica.remove(key(e.before()))).as("delete finds its before image").isEqualTo(e.before());
            case TRUNCATE -> replica.clear();
            default -> throw new AssertionError(e);
          }
          if (e.after() != null) {
            Integer before = home.putIfAbsent(key(e.after()), p);
            assertThat(before == null ? p : before).as("key %s in one partition", key(e.after())).isEqualTo(p);
          }
        }
      }
      for (Map.Entry<Long, Row> row : replica.entrySet()) {
        assertThat(union.put(row.getKey(), row.getValue())).isNull();
      }
    }
    assertThat(union).isEqualTo(source);
    assertThat(auditUnion).containsExactlyElementsOf(sourceAudit); // one partition: the source's order
  }

  /** One random change to the modelled source, as the binlog would carry it. */
  private static ChangeEvent change(Random random, Map<Long, Row> source, List<Row> audit, Scn scn) {
    int dice = random.nextInt(10);
    if (dice == 0) {
      Row row = Row.of(AUDIT, "m" + random.nextInt(1000));
      audit.add(row);
      return ChangeEvent.insert(AUDIT, row, scn, COMMIT_MICROS, 0);
    }
    List<Long> keys = new ArrayList<>(source.keySet());
    keys.sort(null);
    boolean full = source.size() >= 30; // of 40 keys: a free one is always found quickly
    if (keys.isEmpty() || dice < 4 && !full) {
      long id = freeKey(random, source);
      Row row = order(id, "NEW", (long) random.nextInt(100));
      source.put(id, row);
      return ChangeEvent.insert(ORDERS, row, scn, COMMIT_MICROS, 0);
    }
    long id = keys.get(random.nextInt(keys.size()));
    Row before = source.get(id);
    if (dice < 8 && !full) {
      long newId = random.nextBoolean() ? freeKey(random, source) : id; // half of the updates move the key
      Row after = order(newId, "PAID", (long) random.nextInt(100));
      source.remove(id);
      source.put(newId, after);
      return ChangeEvent.update(ORDERS, before, after, scn, COMMIT_MICROS, 0);
    }
    source.remove(id);
    return ChangeEvent.delete(ORDERS, before, scn, COMMIT_MICROS, 0);
  }

  /** A key not in use, from a small space so that keys are reused after deletes and moves. */
  private static long freeKey(Random random, Map<Long, Row> source) {
    while (true) {
      long id = random.nextInt(40);
      if (!source.containsKey(id)) {
        return id;
      }
    }
  }

  private static long key(Row row) {
    return (Long) row.get(0);
  }
}
