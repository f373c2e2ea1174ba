package io.gridway.fetcher.mysql;

import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.FetcherException;

/**
 * {@code scn: gtid} (docs/scn.md): a transaction's SCN is {@code Scn.ofSequence(n)} for its MariaDB GTID {@code
 * d-s-n} in the source's one GTID domain {@code d}. A replica promoted to primary continues the domain's sequence
 * (it allocates the next number after the highest it has logged), so the SCNs go on increasing across a primary
 * switch, and every relay replica computes them alike whichever server it reads. Resume points and positions are
 * the GTID set alone: a file and offset mean nothing on another server.
 *
 * <p>What the rule refuses, with an error naming the GTID: a transaction of another domain (several domains have no
 * common order), a sequence number that does not grow (possible only without {@code gtid_strict_mode}), and a
 * published transaction without a GTID (a MySQL server; MySQL's {@code uuid:n} GTIDs restart their counter on a new
 * primary).
 *
 * <p>Not thread-safe: the binlog reader thread owns it.
 */
final class GtidScns implements ScnRule {
  private final long domain;
  private String lastGtid;
  private long lastSequence;

  /** @param executed the executed GTID set at the start; its entry for {@code domain} is the last sequence passed */
  GtidScns(long domain, String executed) {
    this.domain = domain;
    this.lastGtid = entry(domain, executed);
    this.lastSequence = lastGtid.isEmpty() ? 0 : parse(lastGtid)[2];
  }

  /** The {@code d-s-n} entry of {@code domain} in a MariaDB GTID set, or "" when the set has none. */
  static String entry(long domain, String gtidSet) {
    if (gtidSet == null || gtidSet.isBlank()) {
      return "";
    }
    for (String gtid : gtidSet.split(",")) {
      String g = gtid.trim();
      if (!g.isEmpty() && parse(g)[0] == domain) {
        return g;
      }
    }
    return "";
  }

  /** The sequence number of {@code domain} in a MariaDB GTID set; 0 when the set has no entry for it. */
  static long sequence(long domain, String gtidSet) {
    String entry = entry(domain, gtidSet);
    return entry.isEmpty() ? 0 : parse(entry)[2];
  }

  @Override
  public Scn passed(String gtid, long fileIndex, long endOffset) {
    if (gtid.isEmpty()) {
      return null;
    }
    long[] parts = parse(gtid);
    if (parts[0] != domain) {
      throw new FetcherException("transaction " + gtid + " is in GTID domain " + parts[0] + ", but scn: gtid follows"
          + " one domain (gtidDomain: " + domain + "): transactions of several domains have no common order. Write"
          + " every captured change in domain " + domain + " (gtid_domain_id), or use scn: file (docs/scn.md)");
    }
    if (parts[2] <= lastSequence) {
      throw new FetcherException("transaction " + gtid + " does not follow " + lastGtid + " in GTID domain " + domain
          + ": its sequence number is not greater, so scn: gtid cannot order it. Set gtid_strict_mode=ON on every"
          + " server of the topology (docs/scn.md)");
    }
    lastGtid = gtid;
    lastSequence = parts[2];
    return Scn.ofSequence(parts[2]);
  }

  @Override
  public Scn heartbeat(long fileIndex, long position) {
    return Scn.ofSequence(lastSequence); // the next transaction has a greater sequence number
  }

  /** The sequence of the executed set the rule was built with: the start's, when nothing was passed yet. */
  @Override
  public Scn at(ResumePoint start) {
    return Scn.ofSequence(lastSequence);
  }

  @Override
  public ResumePoint after(String file, long offset, String gtidSet) {
    // until the set is known (a first start on a server that never logged a GTID) only the file can say where
    return gtidSet.isEmpty() ? new ResumePoint(file, offset, "") : new ResumePoint("", 0, gtidSet);
  }

  @Override
  public SourcePosition.Binlog position(ResumePoint point) {
    return point.gtidSet().isEmpty() ? null : SourcePosition.Binlog.ofGtidSet(point.gtidSet());
  }

  /**
   * {@code d-s-n} as {domain, server id, sequence}; a clear error for anything else. Once per transaction on the
   * reader thread, so it reads the three numbers in place rather than splitting the text into an array of
   * Strings; it takes what {@code trim().split("-")} into three unsigned numbers took, trailing dashes included.
   */
  static long[] parse(String gtid) {
    String g = gtid.trim();
    int end = g.length();
    while (end > 0 && g.charAt(end - 1) == '-') {
      end--; // split drops trailing empty parts
    }
    int first = g.indexOf('-');
    int second = first < 0 ? -1 : g.indexOf('-', first + 1);
    if (second >= 0 && second < end && g.lastIndexOf('-', end - 1) == second) {
      try {
        return new long[] {Long.parseUnsignedLong(g, 0, first, 10), Long.parseUnsignedLong(g, first + 1, second, 10),
            Long.parseUnsignedLong(g, second + 1, end, 10)};
      } catch (NumberFormatException e) {
        // falls through to the error below
      }
    }
    throw new FetcherException("'" + gtid + "' is not a MariaDB GTID (domain-server-sequence); scn: gtid needs a"
        + " MariaDB source (MySQL's uuid:n GTIDs are not supported by it, docs/scn.md)");
  }
}
