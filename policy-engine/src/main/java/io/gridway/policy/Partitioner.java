package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;

/**
 * Chooses the partition of an event of one table version, from the source event (before any column
 * transform, so that masking a column never moves rows between partitions). Implementations are
 * immutable and thread-safe.
 */
interface Partitioner {
  int partition(ChangeEvent event);

  /** What it does, for explanations. */
  String describe();

  /** The image that decides: the after image, or the before image of a DELETE; null for TRUNCATE and DDL. */
  static Row decidingRow(ChangeEvent e) {
    return e.after() != null ? e.after() : e.before();
  }

  /** Every event to one partition: "partition by table list", and the policy's default. */
  record Fixed(int partition, String why) implements Partitioner {
    @Override
    public int partition(ChangeEvent event) {
      return partition;
    }

    @Override
    public String describe() {
      return why;
    }
  }

  /**
   * {@code offset + xxHash64(canonical key bytes) mod buckets} (unsigned remainder): see {@link
   * KeyEncoding} and {@link XxHash64}. Events without a row (TRUNCATE, DDL) go to {@code offset}.
   * An UPDATE that changes the key goes to the partition of its new key.
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

    static KeyHash compile(RuleSpec rule, RuleSpec.KeyHashPartition spec, TableSchema schema) throws RuleException {
      if (!schema.hasPrimaryKey()) {
        throw new RuleException(rule, spec.loc(), schema.qualifiedName() + " has no primary key to hash; partition it by table (to) or by a column");
      }
      return new KeyHash(spec.buckets(), spec.offset(), schema.keyIndexes());
    }

    @Override
    public int partition(ChangeEvent event) {
      Row row = Partitioner.decidingRow(event);
      if (row == null) {
        return offset;
      }
      long hash = keyIndexes.length == 1 && row.get(keyIndexes[0]) instanceof Long id
          ? XxHash64.hashTaggedLong(0x01, id)
          : XxHash64.hash(KeyEncoding.encode(row, keyIndexes));
      return offset + (int) Long.remainderUnsigned(hash, buckets);
    }

    @Override
    public String describe() {
      return "key hash mod " + buckets + (offset == 0 ? "" : " + " + offset);
    }
  }

  /**
   * By one column's value through a map; values not in it, NULL, and events without a row go to the
   * default. Map keys are converted once to the column's type, so the lookup is a hash-map probe.
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
    public int partition(ChangeEvent event) {
      Row row = Partitioner.decidingRow(event);
      Object value = row == null ? null : row.get(column);
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
  }
}
