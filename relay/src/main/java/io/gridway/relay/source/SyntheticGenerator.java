package io.gridway.relay.source;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.Transaction;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates the synthetic source's transactions: a pure function of the seed and the transaction's
 * sequence number (1, 2, 3, …), so a restart that resumes at sequence n produces exactly what the
 * first run produced there, and two relays with the same settings agree byte for byte.
 *
 * <p>SCN mapping: the SCN of transaction n is n; its position is {@code Generated(n)}. Tables are
 * {@code synthetic.t0 … t<N-1>} with columns {@code id BIGINT} (the key), {@code tenant INT}, {@code
 * amount DECIMAL(12,2)}, {@code updated TIMESTAMP(6)}, {@code payload VARCHAR} (sized for {@code
 * rowBytes}). Row ids are {@code n * 1,000,000 + i}; an UPDATE or DELETE names the row that an
 * earlier transaction inserted. The partition is a hash of the id modulo the partition count: the
 * stand-in for a fetch policy's partitioner.
 *
 * <p>Not thread-safe (one per fetcher thread); immutable after construction except for scratch.
 */
final class SyntheticGenerator {
  /** Encoded bytes of a row other than the payload's characters: count, bitmap, id, tenant, amount, time, length. */
  private static final int ROW_OVERHEAD = 2 + 1 + 8 + 4 + 6 + 8 + 4;
  private static final long IDS_PER_TRANSACTION = 1_000_000;

  private final SyntheticConfig config;
  private final int partitions;
  private final List<TableSchema> tables = new ArrayList<>();
  private final String pool;
  private final int payloadChars;

  SyntheticGenerator(String sourceId, SyntheticConfig config, int partitions) {
    this.config = config;
    this.partitions = partitions;
    for (int t = 0; t < config.tables(); t++) {
      tables.add(TableSchema.of(sourceId, "synthetic", "t" + t, List.of(
          Column.of("id", ColumnType.BIGINT).notNull(),
          Column.of("tenant", ColumnType.INT),
          Column.decimal("amount", 12, 2),
          Column.temporal("updated", ColumnType.TIMESTAMP, 6),
          new Column("payload", ColumnType.VARCHAR, false, true, 65535, 0, 0, "utf8mb4", List.of())), List.of("id")));
    }
    this.payloadChars = Math.max(1, config.rowBytes() - ROW_OVERHEAD);
    SplittableRandom random = new SplittableRandom(config.seed());
    StringBuilder text = new StringBuilder(payloadChars + 65536);
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    for (int i = 0; i < payloadChars + 65536; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    this.pool = text.toString();
  }

  List<TableSchema> tables() {
    return tables;
  }

  /** The number of events transaction {@code sequence} has: log-uniform between min and max. */
  int size(long sequence) {
    return size(new SplittableRandom(mix(config.seed(), sequence)));
  }

  private int size(SplittableRandom random) {
    int min = config.minTransactionEvents();
    int max = config.maxTransactionEvents();
    if (min == max) {
      return min;
    }
    double logSize = Math.log(min) + random.nextDouble() * (Math.log(max + 1.0) - Math.log(min));
    return (int) Math.min(max, Math.max(min, Math.floor(Math.exp(logSize))));
  }

  /** Transaction {@code sequence} (1-based), committed at {@code commitTimeMicros}. */
  Transaction transaction(long sequence, long commitTimeMicros) {
    SplittableRandom random = new SplittableRandom(mix(config.seed(), sequence));
    int size = size(random);
    Scn scn = new Scn(sequence);
    List<ChangeEvent> events = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      int dice = random.nextInt(100);
      long id;
      boolean earlier = sequence > 1 && dice < config.updatePercent() + config.deletePercent();
      if (earlier) {
        id = (1 + random.nextLong(sequence - 1)) * IDS_PER_TRANSACTION; // the first row of an earlier transaction
      } else {
        id = sequence * IDS_PER_TRANSACTION + i;
      }
      TableSchema table = tables.get((int) Math.floorMod(mix(id, 7), (long) tables.size()));
      int partition = (int) Math.floorMod(mix(id, 13), (long) partitions);
      Row after = row(table, id, random, commitTimeMicros);
      ChangeEvent event;
      if (!earlier) {
        event = ChangeEvent.insert(table, after, scn, commitTimeMicros, partition);
      } else if (dice < config.updatePercent()) {
        event = ChangeEvent.update(table, row(table, id, random, commitTimeMicros), after, scn, commitTimeMicros, partition);
      } else {
        event = ChangeEvent.delete(table, after, scn, commitTimeMicros, partition);
      }
      events.add(event);
    }
    return new Transaction(scn, commitTimeMicros, new SourcePosition.Generated(sequence), "", events);
  }

  private Row row(TableSchema table, long id, SplittableRandom random, long timeMicros) {
    int offset = random.nextInt(65536);
    return Row.of(table,
        id,
        (long) random.nextInt(1000),
        BigDecimal.valueOf(random.nextLong(1_000_000_000L), 2),
        Instant.ofEpochSecond(timeMicros / 1_000_000, (timeMicros % 1_000_000) * 1000),
        pool.substring(offset, offset + payloadChars));
  }

  /** A 64-bit mix (SplitMix64's finaliser) of two longs. */
  static long mix(long a, long b) {
    long z = a * 0x9E3779B97F4A7C15L + b;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
