package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.GtidSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The executed GTID set as of the last transaction the fetcher passed, so that every transaction's
 * position carries it. MariaDB sets are one {@code domain-server-sequence} per domain (kept ordered by
 * domain, so the text is the same in every replica); MySQL sets are {@code uuid:intervals}, kept by the
 * client's {@link GtidSet}. A MariaDB GTID replaces its domain's entry, so a MariaDB set is right for every
 * domain it has seen a transaction of even when it started unknown; a MySQL set that started unknown (a start
 * by file and offset) stays "" until a PREVIOUS_GTIDS event states it.
 *
 * <p>Not thread-safe; the binlog reader thread owns it.
 */
final class GtidTracker {
  private final TreeMap<Long, String> mariaDb = new TreeMap<>();
  private GtidSet mysql;
  private boolean known;
  private String text = "";

  GtidTracker(String initial) {
    reset(initial, false);
  }

  /**
   * Replaces the set.
   *
   * @param emptyIsKnown whether "" means the empty set (a GTID_LIST or PREVIOUS_GTIDS event says so) rather
   *     than "unknown" (a position persisted without one)
   */
  void reset(String set, boolean emptyIsKnown) {
    mariaDb.clear();
    mysql = null;
    String trimmed = set == null ? "" : set.replace("\n", "").trim();
    known = emptyIsKnown || !trimmed.isEmpty();
    if (trimmed.isEmpty()) {
      text = "";
      return;
    }
    if (isMariaDb(trimmed)) {
      for (String gtid : trimmed.split(",")) {
        String g = gtid.trim();
        mariaDb.put(Long.parseLong(g.substring(0, g.indexOf('-'))), g);
      }
    } else {
      mysql = new GtidSet(trimmed);
    }
    text = render();
  }

  boolean known() {
    return known;
  }

  /** Adds a committed transaction's GTID ({@code d-s-n} or {@code uuid:n}). */
  void add(String gtid) {
    if (gtid.isEmpty()) {
      return;
    }
    if (isMariaDb(gtid)) {
      mariaDb.put(Long.parseLong(gtid, 0, gtid.indexOf('-'), 10), gtid);
      known = true;
      if (mariaDb.size() == 1 && mysql == null) {
        text = gtid; // the usual one domain: the set is this GTID, nothing to join (once per transaction)
        return;
      }
    } else if (known) {
      if (mysql == null) {
        mysql = new GtidSet("");
      }
      mysql.add(gtid);
    }
    text = render();
  }

  /** The set as text, "" when unknown. */
  String current() {
    return text;
  }

  private String render() {
    if (mysql != null) {
      return mysql.toString();
    }
    StringBuilder s = new StringBuilder();
    for (Map.Entry<Long, String> e : mariaDb.entrySet()) {
      if (s.length() > 0) {
        s.append(',');
      }
      s.append(e.getValue());
    }
    return s.toString();
  }

  private static boolean isMariaDb(String gtids) {
    return gtids.indexOf(':') < 0;
  }
}
