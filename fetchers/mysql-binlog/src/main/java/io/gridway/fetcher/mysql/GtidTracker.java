package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.GtidSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The executed GTID set as of the last transaction the fetcher passed, so that every transaction's
 * position carries it. MariaDB sets are one {@code domain-server-sequence} per domain (kept ordered by
 * domain, so the text is the same in every replica); MySQL sets are {@code uuid:intervals}, kept by the
 * client's {@link GtidSet}. A set that started unknown (a start by file and offset on MySQL) stays ""
 * until a PREVIOUS_GTIDS or GTID_LIST event states it.
 *
 * <p>Not thread-safe; the binlog reader thread owns it.
 */
final class GtidTracker {
  private final TreeMap<Long, String> mariaDb = new TreeMap<>();
  private GtidSet mysql;
  private boolean known;
  private String text = "";

  GtidTracker(String initial) {
    reset(initial);
  }

  /** Replaces the set, for example from a GTID_LIST event; "" means unknown. */
  void reset(String set) {
    mariaDb.clear();
    mysql = null;
    String trimmed = set == null ? "" : set.replace("\n", "").trim();
    known = !trimmed.isEmpty();
    if (!known) {
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
    if (!known || gtid.isEmpty()) {
      return;
    }
    if (isMariaDb(gtid)) {
      mariaDb.put(Long.parseLong(gtid.substring(0, gtid.indexOf('-'))), gtid);
    } else {
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
