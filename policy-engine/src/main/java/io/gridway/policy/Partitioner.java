package io.gridway.policy;

import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;

/**
 * Chooses the partition of a row image of one table version, from the source row (before any column
 * transform, so that masking a column never moves rows between partitions). Implementations are
 * immutable and thread-safe.
 *
 * <p>Which images decide, and what happens to events without one, is {@link FetchPolicy}'s job: an
 * INSERT goes where its after image goes, a DELETE where its before image goes, an UPDATE whose two
 * images go to different partitions is split into a DELETE and an INSERT, and TRUNCATE and DDL go
 * to every partition (see the README, "Routing of every event kind").
 */
interface Partitioner {
  /** The partition of a row image. */
  int partition(Row row);

  /**
   * Whether two images of one row certainly go to the same partition: true when the values this
   * partitioner reads are equal, which spares an UPDATE that keeps its key a second hash. False
   * means "compute both", not "they differ".
   */
  boolean samePartition(Row before, Row after);

  /** What it does, for explanations. */
  String describe();

  /** The same rule in the form a consumer can check a key against. */
  KeyRouting keyRouting();

  /** Every event to one partition: "partition by table list", and the policy's default. */
  record Fixed(int partition, String why) implements Partitioner {
    @Override
    public int partition(Row row) {
      return partition;
    }

    @Override
    public boolean samePartition(Row before, Row after) {
      return true;
    }

    @Override
    public String describe() {
      return why;
    }

    @Override
    public KeyRouting keyRouting() {
      return new KeyRouting.OnePartition(partition);
    }
  }

  /** A partition rule that does not fit this table version: row events fail, TRUNCATE and DDL need no partitioner. */
  record Unusable(PolicySchemaException failure) implements Partitioner {
    @Override
    public int partition(Row row) {
      throw failure;
    }

    @Override
    public boolean samePartition(Row before, Row after) {
      return true;
    }

    @Override
    public String describe() {
      return "unusable: " + failure.getMessage();
    }

    @Override
    public KeyRouting keyRouting() {
      return new KeyRouting.Unknown(describe());
    }
  }

  /**
   * A table without a primary key under a key-hash rule: all its rows go to one partition, {@code
   * offset + xxHash64(canonical bytes of (database, table)) mod buckets}, so that their order is kept
   * (no key identifies a row, so no other split keeps the order of its changes) and keyless tables
   * still spread over the partitions. The table name is hashed with {@link KeyEncoding}'s string
   * encoding, so an operator can compute the partition like a key's.
   */
  static Fixed byTableName(TableSchema schema, int buckets, int offset) {
    long hash = XxHash64.hash(KeyEncoding.encode(java.util.List.of(schema.database(), schema.table())));
    int partition = offset + (int) Long.remainderUnsigned(hash, buckets);
    return new Fixed(partition, "no primary key: the partition of the table name's hash mod " + buckets
        + (offset == 0 ? "" : " + " + offset) + ", so its rows keep their order");
  }

  /**
   * {@code offset + xxHash64(canonical key bytes) mod buckets} (unsigned remainder): see {@link
   * KeyEncoding} and {@link XxHash64}. A table without a primary key gets {@link #byTableName}
   * instead, and one bucket is {@link Fixed} (nothing to hash).
   */
  final class KeyHash implements Partitioner {
    private final int buckets;
    private final int offset;
    private final int[] keyIndexes;

    KeyHash(int buckets, int offset, int[] keyIndexes) {
      this.buckets = buckets;
      this.offset = offset;
      this.keyIndexes = keyIndexes;
    }

    static Partitioner compile(int buckets, int offset, TableSchema schema) {
      if (buckets == 1) {
        return new Fixed(offset, "key hash mod 1" + (offset == 0 ? "" : " + " + offset));
      }
      if (!schema.hasPrimaryKey()) {
        // A DROP TABLE's placeholder, a keyless table: never a reason to stop the relay (issue 16).
        return byTableName(schema, buckets, offset);
      }
      return new KeyHash(buckets, offset, schema.keyIndexes());
    }

    @Override
    public boolean samePartition(Row before, Row after) {
      for (int index : keyIndexes) {
        if (!java.util.Objects.equals(before.get(index), after.get(index))) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int partition(Row row) {
      long hash = keyIndexes.length == 1 && row.get(keyIndexes[0]) instanceof Long id
          ? XxHash64.hashTaggedLong(0x01, id)
          : XxHash64.hash(KeyEncoding.encode(row, keyIndexes));
      return offset + (int) Long.remainderUnsigned(hash, buckets);
    }

    @Override
    public String describe() {
      return "key hash mod " + buckets + (offset == 0 ? "" : " + " + offset);
    }

    @Override
    public KeyRouting keyRouting() {
      return new KeyRouting.KeyHash(buckets, offset);
    }
  }

  /**
   * By one column's value through a map; values not in it and NULL go to the default. Map keys are converted once to the column's type, so the lookup is a hash-map probe.
   */
  final class ByValue implements Partitioner {
    private final int column;
    private final Map<Object, Integer> map;
    private final int fallback;
    private final String name;

    private ByValue(int column, Map<Object, Integer> map, int fallback, String name) {
      this.column = column;
      this.map = map;
      this.fallback = fallback;
      this.name = name;
    }

    static ByValue compile(RuleSpec rule, RuleSpec.ValuePartition spec, TableSchema schema) throws RuleException {
      int index = schema.indexOf(spec.column().name());
      if (index < 0) {
        throw new RuleException(rule, spec.column().loc(), "column '" + spec.column().name() + "' is not in " + schema.qualifiedName());
      }
      Column column = schema.column(index);
      Map<Object, Integer> map = new HashMap<>();
      for (Map.Entry<String, Integer> e : spec.map().entrySet()) {
        Object key;
        try {
          key = typed(column, e.getKey());
        } catch (RuntimeException notOfType) {
          throw new RuleException(rule, spec.keyLocs().get(e.getKey()), "map key '" + e.getKey() + "' is not a value of "
              + column.type() + " column '" + column.name() + "'");
        }
        map.put(key, e.getValue());
      }
      return new ByValue(index, map, spec.defaultPartition(), column.name());
    }

    /** A map key (YAML text) as a value of the column's Java type; other types match on text. */
    private static Object typed(Column column, String text) {
      Class<?> type = column.javaType();
      if (type == Long.class) {
        return Long.valueOf(text.trim());
      }
      if (type == BigInteger.class) {
        return new BigInteger(text.trim());
      }
      if (type == BigDecimal.class) {
        return new BigDecimal(text.trim()).setScale(column.scale(), RoundingMode.UNNECESSARY);
      }
      return text;
    }

    @Override
    public boolean samePartition(Row before, Row after) {
      return java.util.Objects.equals(before.get(column), after.get(column));
    }

    @Override
    public int partition(Row row) {
      Object value = row.get(column);
      if (value == null) {
        return fallback;
      }
      Object key = value instanceof Long || value instanceof String || value instanceof BigInteger || value instanceof BigDecimal
          ? value : value.toString();
      Integer p = map.get(key);
      return p == null ? fallback : p;
    }

    @Override
    public String describe() {
      return "by value of " + name + " (default " + fallback + ")";
    }

    @Override
    public KeyRouting keyRouting() {
      return new KeyRouting.Unknown(describe());
    }
  }
}
