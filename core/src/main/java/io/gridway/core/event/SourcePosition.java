package io.gridway.core.event;

import java.util.Objects;

/**
 * Where in a source's change log a relay resumes after a transaction: persisted by the relay once
 * the transaction is in its buffer. Each kind of source has its own record.
 */
public sealed interface SourcePosition {

  /**
   * A MySQL/MariaDB binlog position: just after the transaction's commit event.
   *
   * @param file the binlog file name, for example {@code mysql-bin.000042}; {@value #GTID_ONLY} for a position
   *     that is a GTID set alone (a source with {@code scn: gtid}, whose positions must hold on any server)
   * @param offset the offset just after the commit event in that file
   * @param gtidSet the GTID set executed up to and including this transaction (MySQL {@code
   *     uuid:1-42} or MariaDB {@code 0-1-42} form), or empty when the server has no GTIDs
   */
  record Binlog(String file, long offset, String gtidSet) implements SourcePosition {
    public Binlog {
      Objects.requireNonNull(file, "file");
      gtidSet = gtidSet == null ? "" : gtidSet;
      if (offset < 0 || offset > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("binlog offset " + offset + " out of range 0..2^32-1");
      }
    }

    /**
     * The {@code file} of a position that is its GTID set alone ({@code scn: gtid}, docs/scn.md). No binlog file
     * has this name: binlog files end in a numeric suffix.
     */
    public static final String GTID_ONLY = "gtid";

    /** A position that is the GTID set alone, valid on every server of the replication topology. */
    public static Binlog ofGtidSet(String gtidSet) {
      if (gtidSet == null || gtidSet.isBlank()) {
        throw new IllegalArgumentException("a GTID-only binlog position needs a GTID set");
      }
      return new Binlog(GTID_ONLY, 0, gtidSet);
    }

    /** Whether this position is a GTID set alone ({@link #ofGtidSet}), not a file and offset. */
    public boolean gtidOnly() {
      return GTID_ONLY.equals(file);
    }

    /** The numeric suffix of the file name: {@code mysql-bin.000042} → 42. */
    public long fileIndex() {
      int dot = file.lastIndexOf('.');
      try {
        return Long.parseLong(file.substring(dot + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("binlog file name without a numeric suffix: " + file, e);
      }
    }

    @Override
    public String toString() {
      return gtidOnly() ? "gtid=" + gtidSet : file + ":" + offset + (gtidSet.isEmpty() ? "" : " gtid=" + gtidSet);
    }
  }

  /** A GoldenGate trail position: trail file sequence and relative byte address. */
  record Trail(long sequence, long rba) implements SourcePosition {
    public Trail {
      if (sequence < 0 || rba < 0) {
        throw new IllegalArgumentException("negative trail sequence or RBA");
      }
    }

    @Override
    public String toString() {
      return "trail " + sequence + ":" + rba;
    }
  }

  /** A position in a generated (synthetic) stream: the count of transactions produced so far. */
  record Generated(long sequence) implements SourcePosition {
    public Generated {
      if (sequence < 0) {
        throw new IllegalArgumentException("negative sequence " + sequence);
      }
    }

    @Override
    public String toString() {
      return "generated " + sequence;
    }
  }
}
