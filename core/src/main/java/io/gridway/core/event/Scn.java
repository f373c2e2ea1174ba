package io.gridway.core.event;

/**
 * A system change number: a 64-bit position in one source's commit order, strictly increasing, and
 * derived from the source's own log position so that every relay replica reading the same source
 * assigns the same SCN to the same transaction. Compared as unsigned; 0 means "before everything".
 *
 * <p>Mappings (each fetcher documents its own; docs/scn.md has the rules and why):
 *
 * <ul>
 *   <li>MySQL/MariaDB binlog, {@code scn: file} (the default): {@code (binlog file index << 32) | end offset of
 *       the commit event} ({@link #ofBinlog}); one server's file numbering, so it does not survive a primary switch;
 *   <li>MariaDB binlog, {@code scn: gtid}: {@code GTID sequence number << }{@value #SUBSEQUENCE_BITS} ({@link
 *       #ofSequence}), which a promoted replica continues;
 *   <li>GoldenGate trail: {@code (trail sequence << 32) | RBA of the end of the transaction}.
 * </ul>
 *
 * <p>Both binlog rules leave at least {@value #MAX_SNAPSHOT_SUBSEQUENCE} free values after every transaction's
 * SCN for windows that are not source commits ({@link #ofSnapshot}).
 */
public record Scn(long value) implements Comparable<Scn> {
  /** Before every transaction: a consumer starting from here receives everything the relay holds. */
  public static final Scn ZERO = new Scn(0);

  /** The SCN of a binlog transaction whose commit event ends at {@code endOffset} of file {@code fileIndex}. */
  public static Scn ofBinlog(long fileIndex, long endOffset) {
    return new Scn(packed(fileIndex, endOffset, "binlog file index", "offset"));
  }

  /**
   * The low bits of a {@link #ofSequence sequence} SCN, kept free for windows between two source transactions.
   */
  public static final int SUBSEQUENCE_BITS = 6;

  /**
   * The largest sub-sequence of {@link #ofSnapshot}: below the size of any binlog transaction in bytes, and the
   * room {@link #SUBSEQUENCE_BITS} leave between two sequence SCNs.
   */
  public static final int MAX_SNAPSHOT_SUBSEQUENCE = (1 << SUBSEQUENCE_BITS) - 1;

  /** The largest source sequence number {@link #ofSequence} takes: what fits above the sub-sequence bits. */
  public static final long MAX_SEQUENCE = (1L << (64 - SUBSEQUENCE_BITS)) - 1;

  /**
   * The SCN of the transaction with sequence number {@code sequence} in a source's one ordered counter (the MariaDB
   * GTID sequence of the source's GTID domain): {@code sequence << }{@value #SUBSEQUENCE_BITS}. Sequence 0 gives
   * {@link #ZERO}, "before everything".
   */
  public static Scn ofSequence(long sequence) {
    if (sequence < 0 || sequence > MAX_SEQUENCE) {
      throw new IllegalArgumentException("sequence number " + Long.toUnsignedString(sequence) + " out of range 0.."
          + MAX_SEQUENCE + " (an SCN keeps " + SUBSEQUENCE_BITS + " low bits for snapshot windows)");
    }
    return new Scn(sequence << SUBSEQUENCE_BITS);
  }

  /** The source sequence number of a {@link #ofSequence sequence} SCN (the sub-sequence dropped). */
  public long sequence() {
    return value >>> SUBSEQUENCE_BITS;
  }

  /**
   * The SCN of snapshot window {@code subSequence} (1..{@value #MAX_SNAPSHOT_SUBSEQUENCE}) emitted right after
   * high watermark {@code high} (docs/bootstrap.md §2): after the transaction at {@code high}, before the next
   * one — whose commit event ends more than a whole transaction's bytes further on ({@link #ofBinlog}), or whose
   * sequence number is at least one more ({@link #ofSequence}, {@value #MAX_SNAPSHOT_SUBSEQUENCE} below it).
   */
  public static Scn ofSnapshot(Scn high, int subSequence) {
    if (subSequence < 1 || subSequence > MAX_SNAPSHOT_SUBSEQUENCE) {
      throw new IllegalArgumentException("snapshot sub-sequence " + subSequence + " out of range 1.."
          + MAX_SNAPSHOT_SUBSEQUENCE);
    }
    if ((high.offset() + subSequence) > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("high watermark " + high + " leaves no room for sub-sequence " + subSequence);
    }
    return new Scn(high.value + subSequence);
  }

  /** The SCN of a GoldenGate transaction ending at {@code rba} in trail file {@code sequence}. */
  public static Scn ofTrail(long sequence, long rba) {
    return new Scn(packed(sequence, rba, "trail sequence", "RBA"));
  }

  private static long packed(long high, long low, String highName, String lowName) {
    if (high < 0 || high > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(highName + " " + high + " out of range 0..2^32-1");
    }
    if (low < 0 || low > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(lowName + " " + low + " out of range 0..2^32-1");
    }
    return (high << 32) | low;
  }

  /** The high 32 bits: the binlog file index or trail sequence. */
  public long fileIndex() {
    return value >>> 32;
  }

  /** The low 32 bits: the offset or RBA within the file. */
  public long offset() {
    return value & 0xFFFF_FFFFL;
  }

  public boolean isAfter(Scn other) {
    return compareTo(other) > 0;
  }

  @Override
  public int compareTo(Scn other) {
    return Long.compareUnsigned(value, other.value);
  }

  /** The decimal value, as it appears in HTTP parameters and checkpoints. */
  @Override
  public String toString() {
    return Long.toUnsignedString(value);
  }

  /** Parses the decimal form. */
  public static Scn parse(String text) {
    return new Scn(Long.parseUnsignedLong(text));
  }
}
