package io.gridway.fetcher.mysql;

import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * DATE, TIME, DATETIME and TIMESTAMP in both the old formats and the fractional-second formats of MySQL
 * 5.6 / MariaDB 10.1+ (TIME2, DATETIME2, TIMESTAMP2, big-endian with an offset so that they sort as
 * bytes; see the server's sql-common/my_time.c). Stateless.
 *
 * <p>Values {@link java.time} cannot hold — a DATE or DATETIME with a zero month or day (including
 * {@code 0000-00-00}) or a day past the end of its month ({@code 2024-02-31}, which the server stores
 * under {@code ALLOW_INVALID_DATES}), and the zero TIMESTAMP — become {@link ZeroDate} with every field
 * kept, so they replicate exactly into a MySQL target. TIME is a signed {@link Duration} (−838:59:59.999999 to
 * 838:59:59.999999, so negative and beyond 24 hours). TIMESTAMP is an {@link Instant} (the binlog holds
 * UTC seconds); DATETIME a {@link LocalDateTime} (no time zone).
 */
final class TemporalDecoders {
  private static final long DATETIMEF_INT_OFS = 0x80_0000_0000L;
  private static final long TIMEF_INT_OFS = 0x80_0000L;
  private static final long TIMEF_OFS = 0x8000_0000_0000L;

  private TemporalDecoders() {}

  static TypedColumn date(ColumnSpec c) {
    return new TypedColumn(NumericDecoders.plain(c, ColumnType.DATE), in -> {
      int v = in.u24();
      return date(v >>> 9, (v >>> 5) & 0x0F, v & 0x1F);
    });
  }

  static Object date(int year, int month, int day) {
    if (ZeroDate.holds(year, month, day)) {
      return ZeroDate.date(year, month, day);
    }
    return LocalDate.of(year, month, day);
  }

  /** Old TIME: three bytes, a signed integer HHMMSS. */
  static TypedColumn time(ColumnSpec c) {
    return new TypedColumn(temporal(c, ColumnType.TIME, 0), in -> {
      int v = in.u24() << 8 >> 8;
      long abs = Math.abs(v);
      long seconds = (abs / 10000) * 3600 + (abs / 100 % 100) * 60 + abs % 100;
      return Duration.ofSeconds(v < 0 ? -seconds : seconds);
    });
  }

  /** TIME2: three bytes of sign-offset hour:10 minute:6 second:6, then the fraction (negative values borrow). */
  static TypedColumn time2(ColumnSpec c) {
    int fsp = c.meta();
    return new TypedColumn(temporal(c, ColumnType.TIME, fsp), in -> time2(in, fsp));
  }

  static Duration time2(ByteReader in, int fsp) {
    long packed; // (hms << 24) + micros, signed, as my_time_packed_from_binary computes it
    switch (fsp) {
      case 1, 2 -> {
        long intpart = in.be(3) - TIMEF_INT_OFS;
        long frac = in.u8();
        if (intpart < 0 && frac != 0) {
          intpart++;
          frac -= 0x100;
        }
        packed = (intpart << 24) + frac * 10_000;
      }
      case 3, 4 -> {
        long intpart = in.be(3) - TIMEF_INT_OFS;
        long frac = in.be(2);
        if (intpart < 0 && frac != 0) {
          intpart++;
          frac -= 0x10000;
        }
        packed = (intpart << 24) + frac * 100;
      }
      case 5, 6 -> packed = in.be(6) - TIMEF_OFS;
      default -> packed = (in.be(3) - TIMEF_INT_OFS) << 24;
    }
    boolean negative = packed < 0;
    long abs = Math.abs(packed);
    long hms = abs >>> 24;
    long micros = abs & 0xFF_FFFF;
    long hour = (hms >>> 12) & 0x3FF;
    long minute = (hms >>> 6) & 0x3F;
    long second = hms & 0x3F;
    long total = ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros;
    return Duration.ofSeconds(0, (negative ? -total : total) * 1000);
  }

  /** Old DATETIME: eight bytes, the integer YYYYMMDDhhmmss. */
  static TypedColumn datetime(ColumnSpec c) {
    return new TypedColumn(temporal(c, ColumnType.DATETIME, 0), in -> {
      long v = in.le(8);
      long date = v / 1_000_000;
      long time = v % 1_000_000;
      return datetime((int) (date / 10000), (int) (date / 100 % 100), (int) (date % 100),
          (int) (time / 10000), (int) (time / 100 % 100), (int) (time % 100), 0);
    });
  }

  /** DATETIME2: five bytes of sign-offset (year*13+month):17 day:5 hour:5 minute:6 second:6, then the fraction. */
  static TypedColumn datetime2(ColumnSpec c) {
    int fsp = c.meta();
    return new TypedColumn(temporal(c, ColumnType.DATETIME, fsp), in -> {
      long v = in.be(5) - DATETIMEF_INT_OFS;
      int micros = fraction(in, fsp);
      long ymd = v >>> 17;
      long ym = ymd >>> 5;
      long hms = v & 0x1FFFF;
      return datetime((int) (ym / 13), (int) (ym % 13), (int) (ymd & 0x1F),
          (int) (hms >>> 12), (int) ((hms >>> 6) & 0x3F), (int) (hms & 0x3F), micros);
    });
  }

  static Object datetime(int year, int month, int day, int hour, int minute, int second, int micros) {
    if (ZeroDate.holds(year, month, day)) {
      return new ZeroDate(ColumnType.DATETIME, year, month, day, hour, minute, second, micros);
    }
    return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
  }

  /** Old TIMESTAMP: four bytes, little-endian seconds since the epoch; 0 is the zero timestamp. */
  static TypedColumn timestamp(ColumnSpec c) {
    return new TypedColumn(temporal(c, ColumnType.TIMESTAMP, 0), in -> timestamp(in.u32(), 0));
  }

  /** TIMESTAMP2: four big-endian bytes of seconds since the epoch, then the fraction. */
  static TypedColumn timestamp2(ColumnSpec c) {
    int fsp = c.meta();
    return new TypedColumn(temporal(c, ColumnType.TIMESTAMP, fsp), in -> {
      long seconds = in.be(4);
      return timestamp(seconds, fraction(in, fsp));
    });
  }

  private static Object timestamp(long seconds, int micros) {
    if (seconds == 0 && micros == 0) {
      return ZeroDate.zero(ColumnType.TIMESTAMP);
    }
    return Instant.ofEpochSecond(seconds, micros * 1000L);
  }

  /** The fractional part of DATETIME2/TIMESTAMP2: ⌈fsp/2⌉ big-endian bytes, scaled to microseconds. */
  static int fraction(ByteReader in, int fsp) {
    return switch (fsp) {
      case 1, 2 -> in.u8() * 10_000;
      case 3, 4 -> (int) in.be(2) * 100;
      case 5, 6 -> (int) in.be(3);
      default -> 0;
    };
  }

  private static Column temporal(ColumnSpec c, ColumnType type, int fsp) {
    return new Column(c.name(), type, false, c.nullable(), 0, 0, fsp, null, List.of());
  }
}
