package io.gridway.fetcher.mysql;

import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;

/**
 * How a transaction's SCN and its resume position are derived from where it sits in the binlog: the source's
 * {@code scn} setting (docs/scn.md). {@link FileScns} packs binlog file index and offset, one server's numbering;
 * {@link GtidScns} uses the MariaDB GTID sequence number, which a promoted replica continues.
 *
 * <p>Not thread-safe: the binlog reader thread owns it.
 */
interface ScnRule {

  /**
   * A group (transaction or statement) ended here: the SCN its window gets, or null when the rule cannot give one
   * (a group without a GTID under {@link GtidScns}; fine for a group that publishes nothing).
   *
   * @param gtid the group's GTID, "" when it had none
   * @param fileIndex the numeric suffix of the binlog file being read
   * @param endOffset the offset just past the group's last event
   * @throws io.gridway.core.fetch.FetcherException when the GTIDs break the rule (another domain, a sequence that
   *     goes back)
   */
  Scn passed(String gtid, long fileIndex, long endOffset);

  /** The SCN of a server heartbeat at {@code position} of file {@code fileIndex}: never above the next commit's. */
  Scn heartbeat(long fileIndex, long position);

  /**
   * The SCN of a start position, before anything is read there (the relay's buffer floor), or null when the rule
   * cannot tell yet ({@link FileScns} for a start by GTID set: no file before the first rotate).
   */
  Scn at(ResumePoint start);

  /** Where to resume after a boundary at {@code file:offset}, the executed set then being {@code gtidSet}. */
  ResumePoint after(String file, long offset, String gtidSet);

  /** The position the relay persists for a resume point; null when the point cannot be stored under this rule. */
  SourcePosition.Binlog position(ResumePoint point);

  /** {@code scn: file}: {@code Scn.ofBinlog(file index, offset)}, positions by file and offset. */
  final class FileScns implements ScnRule {
    @Override
    public Scn passed(String gtid, long fileIndex, long endOffset) {
      return Scn.ofBinlog(fileIndex, endOffset);
    }

    @Override
    public Scn heartbeat(long fileIndex, long position) {
      return Scn.ofBinlog(fileIndex, position);
    }

    @Override
    public Scn at(ResumePoint start) {
      return start.byGtid() ? null : Scn.ofBinlog(BinlogNames.fileIndex(start.file()), start.offset());
    }

    @Override
    public ResumePoint after(String file, long offset, String gtidSet) {
      return new ResumePoint(file, offset, gtidSet);
    }

    @Override
    public SourcePosition.Binlog position(ResumePoint point) {
      return point.toPosition();
    }
  }
}
