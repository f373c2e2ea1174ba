package io.gridway.fetcher.mysql;

import java.util.Objects;

/**
 * Where a fetcher without a persisted position starts: the configured {@code start} key.
 *
 * <ul>
 *   <li>{@code end}: the server's current end of the binlog (only what is committed from now on);
 *   <li>{@code earliest}: the start of the oldest binlog file still on the server;
 *   <li>{@code <file>:<offset>}: just after a known position, for example {@code mariadb-bin.000042:1234}
 *       (the offset must be an event boundary, as a {@code SourcePosition.Binlog} is);
 *   <li>{@code gtid:<set>}: after a GTID set, MySQL ({@code uuid:1-42}) or MariaDB ({@code 0-1-42}) form.
 * </ul>
 *
 * Immutable.
 */
record StartPosition(Kind kind, String file, long offset, String gtidSet) {

  enum Kind {
    END,
    EARLIEST,
    FILE,
    GTID
  }

  StartPosition {
    Objects.requireNonNull(kind, "kind");
    file = file == null ? "" : file;
    gtidSet = gtidSet == null ? "" : gtidSet;
  }

  static StartPosition parse(String text) {
    String value = text.trim();
    if (value.equalsIgnoreCase("end")) {
      return new StartPosition(Kind.END, "", 0, "");
    }
    if (value.equalsIgnoreCase("earliest")) {
      return new StartPosition(Kind.EARLIEST, "", 0, "");
    }
    if (value.regionMatches(true, 0, "gtid:", 0, 5)) {
      String set = value.substring(5).trim();
      if (set.isEmpty()) {
        throw new IllegalArgumentException("'" + text + "' names no GTID set (write for example gtid:0-1-42)");
      }
      return new StartPosition(Kind.GTID, "", 0, set);
    }
    int colon = value.lastIndexOf(':');
    if (colon <= 0 || colon == value.length() - 1) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a start position (use end, earliest, <binlog file>:<offset> or gtid:<set>)");
    }
    String file = value.substring(0, colon);
    long offset;
    try {
      offset = Long.parseLong(value.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': the offset after ':' is not a number", e);
    }
    if (offset < 4 || offset > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("'" + text + "': offset out of range 4..4294967295");
    }
    BinlogNames.fileIndex(file); // the SCN needs the numeric suffix
    return new StartPosition(Kind.FILE, file, offset, "");
  }

  @Override
  public String toString() {
    return switch (kind) {
      case END -> "end";
      case EARLIEST -> "earliest";
      case FILE -> file + ":" + offset;
      case GTID -> "gtid:" + gtidSet;
    };
  }
}
