package io.gridway.consumer;

import io.gridway.core.event.Bytes;
import io.gridway.core.schema.TableSchema;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The key range a snapshot chunk covers when the relay says it holds the whole range (docs/bootstrap.md §5.3): every row
 * of the table whose key is after {@code after} and at or before {@code through} that the source held at the chunk's
 * SCN is in the chunk's window. A target row of the range whose key is not in the window no longer exists at the
 * source (it was deleted while the partition was away, or never was): the applier deletes it, in the window's
 * transaction. The ranges of a table's chunks tile its whole key space: the first starts at the table's lowest key
 * ({@code after} null), each next one right after the previous one's last key, and the last one runs to its end
 * ({@code through} null).
 *
 * <p>Key values as the relay's cursor JSON gives them: {@link Long} or {@link BigInteger} for integers, {@link String}
 * for decimals, temporals and text, {@link Bytes} for binaries. Immutable.
 *
 * <p>On a source of several partitions whose rows go by key hash, only the range's target rows whose key hashes to the
 * window's partition are its to delete ({@link #keyHash}): a key of another partition may be on the target because
 * that partition, ahead of this one, applied its INSERT after the chunk's SCN.
 *
 * @param schema the table version the chunk was read with (its key columns and the apply policy's rule)
 * @param after the key the range starts after, or null for the table's lowest key
 * @param through the last key of the range, or null for the table's end
 * @param keyHash which of the range's target rows are the window's partition's, or null for all of them
 */
public record SnapshotRange(TableSchema schema, List<Object> after, List<Object> through, KeyHashShare keyHash) {

  /**
   * The range's target rows whose key goes to {@code partition} under the relay's key hash: {@code offset +
   * xxHash64(canonical key bytes) mod buckets}, the function the relay partitions rows with. A partition outside the
   * hash's {@code offset .. offset + buckets - 1} has no key of the table: none of the range's rows is its.
   */
  public record KeyHashShare(int buckets, int offset, int partition) {
    public KeyHashShare {
      if (buckets < 1 || offset < 0) {
        throw new IllegalArgumentException("a key hash over " + buckets + " buckets from " + offset);
      }
    }
  }

  public SnapshotRange {
    Objects.requireNonNull(schema, "schema");
    after = after == null ? null : Collections.unmodifiableList(new ArrayList<>(after));
    through = through == null ? null : Collections.unmodifiableList(new ArrayList<>(through));
  }

  /**
   * The range of a chunk read after the cursor key {@code afterJson} (null: the table's start) through {@code lastJson}
   * (ignored when {@code done}: the range runs to the table's end), as the relay's {@code Gridway-Snapshot-Range} header
   * {@code range} states it for the consumer of {@code partition}; null when the header is absent or of a kind this
   * consumer does not know (nothing is deleted then, as from an older relay).
   *
   * @throws IllegalArgumentException when a key or a {@code key-hash} header is malformed
   */
  static SnapshotRange of(TableSchema schema, String afterJson, String lastJson, boolean done, String range,
      int partition) {
    if (!known(range)) {
      return null;
    }
    KeyHashShare share = null;
    if (!"whole".equals(range)) {
      share = keyHash(range, partition);
      if (share == null) {
        return null;
      }
    }
    return new SnapshotRange(schema, afterJson == null ? null : key(afterJson), done ? null : key(lastJson), share);
  }

  /** Whether a {@code Gridway-Snapshot-Range} header is of a kind this consumer applies: its first token, exactly. */
  static boolean known(String range) {
    if (range == null) {
      return false;
    }
    int semicolon = range.indexOf(';');
    String kind = (semicolon < 0 ? range : range.substring(0, semicolon)).trim();
    return kind.equals("whole") || kind.equals("key-hash");
  }

  /** {@code key-hash; buckets=B; offset=O}, or null when it has a parameter this consumer does not know. */
  private static KeyHashShare keyHash(String range, int partition) {
    Integer buckets = null;
    Integer offset = null;
    String[] parts = range.split(";");
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i].trim();
      int eq = part.indexOf('=');
      String name = eq < 0 ? part : part.substring(0, eq);
      try {
        if (name.equals("buckets")) {
          buckets = Integer.parseInt(part.substring(eq + 1));
        } else if (name.equals("offset")) {
          offset = Integer.parseInt(part.substring(eq + 1));
        } else {
          return null; // a parameter this consumer does not know may narrow the rule: deleting by the rest could take
                       // too much, so it deletes nothing, as for a kind it does not know
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("snapshot range \"" + range + "\": " + name + " is not a number", e);
      }
    }
    if (!parts[0].trim().equals("key-hash") || buckets == null || offset == null) {
      throw new IllegalArgumentException("snapshot range \"" + range
          + "\" is not of the form \"key-hash; buckets=B; offset=O\"");
    }
    return new KeyHashShare(buckets, offset, partition);
  }

  /** A key as the relay's cursor header writes it ({@link io.gridway.core.snapshot.SnapshotKeys}). */
  static List<Object> key(String json) {
    try {
      return io.gridway.core.snapshot.SnapshotKeys.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("snapshot key " + e.getMessage(), e);
    }
  }

}
