package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetcherException;
import java.util.List;
import java.util.Locale;

/**
 * What the fetcher learns about its server before each connection, and the checks that turn a bad setting
 * into an operator's error message rather than a fetcher that runs wrong. Immutable.
 *
 * @param address {@code host:port}, for messages
 * @param version {@code @@version}
 * @param logBin whether binary logging is on
 * @param binlogFormat {@code @@global.binlog_format}
 * @param rowImage {@code @@global.binlog_row_image}
 * @param rowMetadata {@code @@global.binlog_row_metadata} (MINIMAL, FULL, NO_LOG), or "" when the server has none
 * @param serverId the server's own {@code @@server_id}
 * @param binlogs the binlog files on the server, oldest first (SHOW BINARY LOGS)
 * @param collations collation ids to character sets, from the server
 */
record ServerFacts(
    String address,
    String version,
    boolean logBin,
    String binlogFormat,
    String rowImage,
    String rowMetadata,
    long serverId,
    List<BinlogFile> binlogs,
    Collations collations) {

  /** One row of SHOW BINARY LOGS. */
  record BinlogFile(String name, long size) {}

  ServerFacts {
    binlogs = List.copyOf(binlogs);
  }

  boolean mariaDb() {
    return version.toLowerCase(Locale.ROOT).contains("mariadb");
  }

  /** The settings a row-based fetcher cannot run without, and a server id that is not the server's own. */
  void verify(long replicaServerId) {
    if (!logBin) {
      throw new FetcherException(address + " has binary logging off (log_bin=OFF); start the server with --log-bin"
          + " --binlog-format=ROW --binlog-row-image=FULL --binlog-row-metadata=FULL");
    }
    if (!"ROW".equalsIgnoreCase(binlogFormat)) {
      throw new FetcherException("binlog_format is " + binlogFormat + " on " + address
          + "; this fetcher needs row events: SET GLOBAL binlog_format=ROW (and binlog_format=ROW in the server's"
          + " configuration), then restart the fetcher");
    }
    if (!"FULL".equalsIgnoreCase(rowImage)) {
      throw new FetcherException("binlog_row_image is " + rowImage + " on " + address
          + "; this fetcher needs whole before and after images: SET GLOBAL binlog_row_image=FULL (and"
          + " binlog_row_image=FULL in the server's configuration), then restart the fetcher");
    }
    if (replicaServerId == serverId) {
      throw new FetcherException("serverId " + replicaServerId + " is the server_id of " + address
          + " itself; give the fetcher a serverId no other server or replica uses");
    }
  }

  /** Throws when a file-based position is not (or no longer) on the server. */
  void checkAvailable(ResumePoint point) {
    if (point.byGtid() || binlogs.isEmpty()) {
      return;
    }
    for (BinlogFile file : binlogs) {
      if (file.name().equals(point.file())) {
        if (point.offset() > file.size()) {
          throw new FetcherException("binlog position " + point.file() + ":" + point.offset() + " is beyond the end of "
              + point.file() + " (" + file.size() + " bytes) on " + address
              + "; the position belongs to another server or the binlog was rewritten");
        }
        return;
      }
    }
    throw purged("binlog position " + point.file() + ":" + point.offset(), point.file());
  }

  /** The message for a position whose file the server no longer (or never) had. */
  FetcherException purged(String what, String file) {
    BinlogFile oldest = binlogs.get(0);
    BinlogFile newest = binlogs.get(binlogs.size() - 1);
    boolean older = sameBase(file, oldest.name()) && BinlogNames.fileIndex(file) < BinlogNames.fileIndex(oldest.name());
    if (older || !sameBase(file, oldest.name())) {
      return new FetcherException(what + " is no longer on " + address + ": " + file
          + " has been purged; the oldest binlog file available is " + oldest.name() + " (SHOW BINARY LOGS: "
          + oldest.name() + " … " + newest.name() + "). Re-seed the target and start from 'earliest' (or a"
          + " newer position), or restore the purged binlogs");
    }
    return new FetcherException(what + " is not on " + address + ": its binlog files run from " + oldest.name()
        + " to " + newest.name() + " (SHOW BINARY LOGS); the position belongs to another server");
  }

  /** The message for a GTID position the server can no longer serve. */
  FetcherException gtidPurged(String gtidSet, String serverMessage) {
    String oldest = binlogs.isEmpty() ? "none" : binlogs.get(0).name();
    return new FetcherException("GTID position " + gtidSet + " is no longer on " + address
        + ": the binlogs holding the transactions after it have been purged; the oldest binlog file available is "
        + oldest + " (server: " + serverMessage + "). Re-seed the target and start from 'earliest', or restore"
        + " the purged binlogs");
  }

  private static boolean sameBase(String a, String b) {
    int dotA = a.lastIndexOf('.');
    int dotB = b.lastIndexOf('.');
    return dotA > 0 && dotB > 0 && a.substring(0, dotA).equals(b.substring(0, dotB));
  }
}
