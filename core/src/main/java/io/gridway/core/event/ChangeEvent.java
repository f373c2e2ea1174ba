package io.gridway.core.event;

import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One change to one table, within one source transaction.
 *
 * <p>Which images an event has depends on its operation: INSERT has {@code after}, UPDATE both,
 * DELETE {@code before}, TRUNCATE and SCHEMA_CHANGE none; SCHEMA_CHANGE also carries the DDL text
 * and, as its schema, the table's shape after the statement. Source, database, table and key come
 * from the schema, so an event never disagrees with it.
 *
 * @param schema the table version the images follow
 * @param op what happened
 * @param before the row before the change, or null
 * @param after the row after the change, or null
 * @param ddl the statement of a SCHEMA_CHANGE, null otherwise
 * @param scn the SCN of the transaction the event belongs to
 * @param commitTimeMicros the source commit time, microseconds since the epoch (the source's
 *     resolution may be coarser: MySQL's binlog has whole seconds)
 * @param partition the partition the fetch policy assigned, 0..65535
 * @param origin the origin id of the grid that wrote this change into the source, or "" for none
 */
public record ChangeEvent(
    TableSchema schema,
    Operation op,
    Row before,
    Row after,
    String ddl,
    Scn scn,
    long commitTimeMicros,
    int partition,
    String origin) {

  /** Partitions are 16-bit on the wire. */
  public static final int MAX_PARTITION = 0xFFFF;

  public ChangeEvent {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(scn, "scn");
    origin = origin == null ? "" : origin;
    if (partition < 0 || partition > MAX_PARTITION) {
      throw new IllegalArgumentException("partition " + partition + " out of range 0.." + MAX_PARTITION);
    }
    boolean wantsBefore = op.hasBefore();
    boolean wantsAfter = op.hasAfter();
    if ((before != null) != wantsBefore || (after != null) != wantsAfter) {
      throw new IllegalArgumentException(op + " on " + schema.qualifiedName() + " must have "
          + (wantsBefore ? "a" : "no") + " before image and " + (wantsAfter ? "an" : "no") + " after image");
    }
    if ((ddl != null) != (op == Operation.SCHEMA_CHANGE)) {
      throw new IllegalArgumentException("only a SCHEMA_CHANGE carries DDL (" + op + " on " + schema.qualifiedName() + ")");
    }
    checkWidth(schema, before);
    checkWidth(schema, after);
  }

  private static void checkWidth(TableSchema schema, Row row) {
    if (row != null && row.size() != schema.columnCount()) {
      throw new IllegalArgumentException(schema.qualifiedName() + ": row of " + row.size() + " values for "
          + schema.columnCount() + " columns");
    }
  }

  public static ChangeEvent insert(TableSchema schema, Row after, Scn scn, long commitTimeMicros, int partition) {
    return new ChangeEvent(schema, Operation.INSERT, null, after, null, scn, commitTimeMicros, partition, "");
  }

  /** A snapshot row (docs/bootstrap.md): after image only, at the snapshot window's SCN. */
  public static ChangeEvent read(TableSchema schema, Row after, Scn scn, long commitTimeMicros, int partition) {
    return new ChangeEvent(schema, Operation.READ, null, after, null, scn, commitTimeMicros, partition, "");
  }

  public static ChangeEvent update(TableSchema schema, Row before, Row after, Scn scn, long commitTimeMicros, int partition) {
    return new ChangeEvent(schema, Operation.UPDATE, before, after, null, scn, commitTimeMicros, partition, "");
  }

  public static ChangeEvent delete(TableSchema schema, Row before, Scn scn, long commitTimeMicros, int partition) {
    return new ChangeEvent(schema, Operation.DELETE, before, null, null, scn, commitTimeMicros, partition, "");
  }

  public String source() {
    return schema.source();
  }

  public String database() {
    return schema.database();
  }

  public String table() {
    return schema.table();
  }

  public long schemaId() {
    return schema.id();
  }

  /**
   * The primary-key values, from the after image (the before image for a DELETE); empty for a table
   * without a key and for TRUNCATE and SCHEMA_CHANGE.
   */
  public List<Object> key() {
    Row row = after != null ? after : before;
    if (row == null || !schema.hasPrimaryKey()) {
      return List.of();
    }
    List<Object> key = new ArrayList<>(schema.keySize());
    for (int k = 0; k < schema.keySize(); k++) {
      key.add(row.get(schema.keyIndex(k)));
    }
    return Collections.unmodifiableList(key);
  }

  /** This event with another partition: what a fetch policy's partitioner produces. */
  public ChangeEvent withPartition(int newPartition) {
    return new ChangeEvent(schema, op, before, after, ddl, scn, commitTimeMicros, newPartition, origin);
  }
}
