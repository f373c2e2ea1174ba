package io.gridway.fetcher.goldengate;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Parses the date-time texts GoldenGate writes for DATE and TIMESTAMP columns and for commit times, by hand
 * (no regex, no formatter objects per value): {@code YYYY-MM-DD}, then optionally a separator (space, 'T' or
 * ':'), {@code HH:MI:SS}, a fraction of 1..9 digits, and for zoned types an offset ({@code +02:00}, {@code
 * -0700}, {@code Z}) or a region name after a space. Digits beyond microseconds are dropped (the grid carries
 * microseconds); see README.md.
 */
final class OracleTemporal {
  private OracleTemporal() {}

  static LocalDateTime localDateTime(String text) {
    Parsed p = parse(text, false);
    return p.local;
  }

  /** A zoned value converted to UTC; without a zone in the text it is taken to be UTC already. */
  static LocalDateTime utcDateTime(String text) {
    Parsed p = parse(text, true);
    if (p.zone == null) {
      return p.local;
    }
    return p.local.atZone(p.zone).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
  }

  /** Microseconds since the epoch of a UTC time such as {@code op_ts} or a transaction timestamp. */
  static long epochMicros(String text) {
    Parsed p = parse(text, true);
    LocalDateTime utc = p.zone == null ? p.local : p.local.atZone(p.zone).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
    long seconds = utc.toEpochSecond(ZoneOffset.UTC);
    return seconds * 1_000_000L + utc.getNano() / 1000;
  }

  private record Parsed(LocalDateTime local, ZoneId zone) {}

  private static Parsed parse(String text, boolean zoneAllowed) {
    int n = text.length();
    try {
      int year = digits(text, 0, 4);
      expect(text, 4, '-');
      int month = digits(text, 5, 2);
      expect(text, 7, '-');
      int day = digits(text, 8, 2);
      int hour = 0;
      int minute = 0;
      int second = 0;
      int nanos = 0;
      int i = 10;
      if (i < n && (text.charAt(i) == ' ' || text.charAt(i) == 'T' || text.charAt(i) == ':') && i + 1 < n && isDigit(text.charAt(i + 1))) {
        hour = digits(text, i + 1, 2);
        expect(text, i + 3, ':');
        minute = digits(text, i + 4, 2);
        expect(text, i + 6, ':');
        second = digits(text, i + 7, 2);
        i += 9;
        if (i < n && text.charAt(i) == '.') {
          int start = ++i;
          while (i < n && isDigit(text.charAt(i))) {
            i++;
          }
          int count = i - start;
          if (count == 0 || count > 9) {
            throw new MalformedRecordException("'" + text + "' has a fraction of " + count + " digits (1..9 expected)");
          }
          nanos = Integer.parseInt(text, start, Math.min(i, start + 6), 10);
          for (int k = Math.min(count, 6); k < 9; k++) {
            nanos *= 10;
          }
        }
      }
      LocalDateTime local = LocalDateTime.of(year, month, day, hour, minute, second, nanos);
      ZoneId zone = null;
      while (i < n && text.charAt(i) == ' ') {
        i++;
      }
      if (i < n) {
        if (!zoneAllowed) {
          throw new MalformedRecordException("'" + text + "' has text after the time: '" + text.substring(i) + "'");
        }
        zone = zone(text.substring(i));
      }
      return new Parsed(local, zone);
    } catch (DateTimeException | IndexOutOfBoundsException e) {
      throw new MalformedRecordException("'" + ValueDecoders.abbreviated(text) + "' is not a date-time (YYYY-MM-DD HH:MI:SS[.fffffffff])");
    }
  }

  private static ZoneId zone(String text) {
    if (text.equals("Z") || text.equals("UTC") || text.equals("GMT")) {
      return ZoneOffset.UTC;
    }
    char c = text.charAt(0);
    if (c == '+' || c == '-') {
      int hours = digits(text, 1, 2);
      int at = text.length() > 3 && text.charAt(3) == ':' ? 4 : 3;
      int minutes = text.length() > at ? digits(text, at, 2) : 0;
      return ZoneOffset.ofHoursMinutes(c == '-' ? -hours : hours, c == '-' ? -minutes : minutes);
    }
    return ZoneId.of(text);
  }

  private static int digits(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (!isDigit(c)) {
        throw new DateTimeException("not a digit");
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static void expect(String text, int at, char c) {
    if (text.charAt(at) != c) {
      throw new DateTimeException("expected " + c);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
