package io.gridway.core.wire;

import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.ColumnType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Conversions between the Java temporal types and their wire forms ({@code docs/wire-format.md}
 * §4.2): packed DATE ({@code year<<9|month<<5|day}), packed DATETIME, TIME and TIMESTAMP as
 * microseconds. Zero dates map to {@link ZeroDate}. Shared by the encoder, the decoder and the JSON
 * rendering, so the three cannot disagree. Stateless and thread-safe.
 */
final class Temporals {
  /** ±838:59:59.999999. */
  static final long MAX_TIME_MICROS = 3_020_399_999_999L;

  /** 9999-12-31T23:59:59.999999Z, as the model's TIMESTAMP range ends. */
  static final long MAX_TIMESTAMP_MICROS = 253_402_300_799_999_999L;

  private static final long MICROS_PER_SECOND = 1_000_000L;

  private Temporals() {}

  // ---- DATE -------------------------------------------------------------------------------------

  static int packDate(int year, int month, int day) {
    return year << 9 | month << 5 | day;
  }

  static int packDate(LocalDate date) {
    return packDate(date.getYear(), date.getMonthValue(), date.getDayOfMonth());
  }

  /** Whether a wire DATE has every field in range (and no bits above the year). */
  static boolean isValidDate(int packed) {
    if (packed < 0 || packed >>> 9 > 9999) {
      return false;
    }
    return isValidDay(packed >>> 5 & 0xF, packed & 0x1F);
  }

  /** A valid wire DATE as a {@link LocalDate}, or a {@link ZeroDate} when it is a zero or invalid date. */
  static Object unpackDate(int packed) {
    int year = packed >>> 9;
    int month = packed >>> 5 & 0xF;
    int day = packed & 0x1F;
    return ZeroDate.holds(year, month, day) ? ZeroDate.date(year, month, day) : LocalDate.of(year, month, day);
  }

  // ---- DATETIME ---------------------------------------------------------------------------------

  static long packDateTime(int year, int month, int day, int hour, int minute, int second, int micros) {
    return (long) year << 46 | (long) month << 42 | (long) day << 37 | (long) hour << 32
        | (long) minute << 26 | (long) second << 20 | micros;
  }

  static long packDateTime(LocalDateTime t) {
    return packDateTime(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
        t.getSecond(), t.getNano() / 1000);
  }

  static boolean isValidDateTime(long packed) {
    if (packed < 0 || packed >>> 46 > 9999) {
      return false;
    }
    int hour = (int) (packed >>> 32 & 0x1F);
    int minute = (int) (packed >>> 26 & 0x3F);
    int second = (int) (packed >>> 20 & 0x3F);
    int micros = (int) (packed & 0xF_FFFF);
    return hour < 24 && minute < 60 && second < 60 && micros < MICROS_PER_SECOND
        && isValidDay((int) (packed >>> 42 & 0xF), (int) (packed >>> 37 & 0x1F));
  }

  /** A valid wire DATETIME as a {@link LocalDateTime}, or a {@link ZeroDate}. */
  static Object unpackDateTime(long packed) {
    int year = (int) (packed >>> 46);
    int month = (int) (packed >>> 42 & 0xF);
    int day = (int) (packed >>> 37 & 0x1F);
    int hour = (int) (packed >>> 32 & 0x1F);
    int minute = (int) (packed >>> 26 & 0x3F);
    int second = (int) (packed >>> 20 & 0x3F);
    int micros = (int) (packed & 0xF_FFFF);
    if (ZeroDate.holds(year, month, day)) {
      return new ZeroDate(ColumnType.DATETIME, year, month, day, hour, minute, second, micros);
    }
    return LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
  }

  /** Month 0–12 and day 0–31: zero and invalid dates (2024-02-31, as ALLOW_INVALID_DATES stores) included. */
  private static boolean isValidDay(int month, int day) {
    return month <= 12 && day <= 31;
  }

  /** The packed DATE or DATETIME, or TIMESTAMP 0, of a zero date. */
  static long packZero(ZeroDate zero) {
    return switch (zero.type()) {
      case DATE -> packDate(zero.year(), zero.month(), zero.day());
      case DATETIME -> packDateTime(zero.year(), zero.month(), zero.day(), zero.hour(), zero.minute(),
          zero.second(), zero.micros());
      default -> 0L;
    };
  }

  // ---- TIME and TIMESTAMP -----------------------------------------------------------------------

  /** Signed microseconds of a TIME value the model has range-checked. */
  static long timeMicros(Duration d) {
    return d.getSeconds() * MICROS_PER_SECOND + d.getNano() / 1000;
  }

  static Duration time(long micros) {
    return Duration.ofSeconds(Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * 1000);
  }

  /** Microseconds since the epoch of an instant the model has range-checked. */
  static long epochMicros(Instant t) {
    return t.getEpochSecond() * MICROS_PER_SECOND + t.getNano() / 1000;
  }

  static Instant instant(long epochMicros) {
    return Instant.ofEpochSecond(Math.floorDiv(epochMicros, MICROS_PER_SECOND),
        Math.floorMod(epochMicros, MICROS_PER_SECOND) * 1000);
  }

  /** A wire TIMESTAMP (0 … {@link #MAX_TIMESTAMP_MICROS}) as an {@link Instant}, or the zero TIMESTAMP. */
  static Object timestamp(long epochMicros) {
    return epochMicros == 0 ? ZeroDate.zero(ColumnType.TIMESTAMP) : instant(epochMicros);
  }

  /** MySQL's text form of a TIME: {@code [-]H:MM:SS[.ffffff]}, hours unbounded by a day. */
  static String timeText(long micros) {
    long abs = Math.abs(micros);
    long seconds = abs / MICROS_PER_SECOND;
    int fraction = (int) (abs % MICROS_PER_SECOND);
    StringBuilder text = new StringBuilder(17);
    if (micros < 0) {
      text.append('-');
    }
    text.append(twoDigits(seconds / 3600)).append(':').append(twoDigits(seconds / 60 % 60)).append(':')
        .append(twoDigits(seconds % 60));
    if (fraction != 0) {
      text.append('.').append(String.valueOf(MICROS_PER_SECOND + fraction), 1, 7);
    }
    return text.toString();
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.ffffff]}, seconds always present (unlike LocalDateTime.toString). */
  static String dateTimeText(LocalDateTime t) {
    StringBuilder text = new StringBuilder(26);
    text.append(t.toLocalDate()).append('T').append(twoDigits(t.getHour())).append(':')
        .append(twoDigits(t.getMinute())).append(':').append(twoDigits(t.getSecond()));
    int micros = t.getNano() / 1000;
    if (micros != 0) {
      text.append('.').append(String.valueOf(MICROS_PER_SECOND + micros), 1, 7);
    }
    return text.toString();
  }

  private static String twoDigits(long value) {
    return value < 10 ? "0" + value : Long.toString(value);
  }
}
