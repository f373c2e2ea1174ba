package io.gridway.fetcher.mysql;

import io.gridway.core.event.SourcePosition;

/**
 * Where the next connection starts reading: a transaction boundary, by file and offset or, with no
 * file yet, by GTID set. Immutable.
 *
 * @param file the binlog file, or "" to start from {@code gtidSet}
 * @param offset the offset in {@code file} (ignored without a file)
 * @param gtidSet the executed GTID set at this point, or "" when unknown
 */
record ResumePoint(String file, long offset, String gtidSet) {

  ResumePoint {
    file = file == null ? "" : file;
    gtidSet = gtidSet == null ? "" : gtidSet;
  }

  static ResumePoint after(SourcePosition.Binlog position) {
    if (position.gtidOnly()) {
      return new ResumePoint("", 0, position.gtidSet()); // scn: gtid
    }
    return new ResumePoint(position.file(), position.offset(), position.gtidSet());
  }

  /** The same point by its GTID set alone, when the set is known; as it is otherwise. */
  ResumePoint byGtidSet() {
    return gtidSet.isEmpty() ? this : new ResumePoint("", 0, gtidSet);
  }

  boolean byGtid() {
    return file.isEmpty();
  }

  SourcePosition.Binlog toPosition() {
    return new SourcePosition.Binlog(file, offset, gtidSet);
  }

  @Override
  public String toString() {
    return byGtid() ? "gtid " + gtidSet : file + ":" + offset + (gtidSet.isEmpty() ? "" : " (gtid " + gtidSet + ")");
  }
}
