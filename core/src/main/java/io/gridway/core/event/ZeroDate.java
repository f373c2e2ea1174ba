package io.gridway.core.event;

import io.gridway.core.schema.ColumnType;
import java.time.YearMonth;
import java.util.Objects;

/**
 * A DATE, DATETIME or TIMESTAMP value that {@link java.time} cannot hold: MySQL's zero date
 * {@code 0000-00-00}, dates with a zero month or day (allowed when the server's SQL mode lacks
 * {@code NO_ZERO_DATE}/{@code NO_ZERO_IN_DATE}), and dates past the end of their month such as
 * {@code 2024-02-31} (stored when the SQL mode has {@code ALLOW_INVALID_DATES}, which checks only
 * month 1–12 and day 1–31). It keeps every field so that it replicates exactly into a MySQL/MariaDB
 * target; appliers for targets without such dates write NULL (see the applier's type mapping). A
 * zero TIMESTAMP has all fields 0 (a TIMESTAMP is never an invalid date).
 */
public record ZeroDate(ColumnType type, int year, int month, int day, int hour, int minute, int second, int micros) {

  public ZeroDate {
    Objects.requireNonNull(type, "type");
    if (type != ColumnType.DATE && type != ColumnType.DATETIME && type != ColumnType.TIMESTAMP) {
      throw new IllegalArgumentException("only DATE, DATETIME and TIMESTAMP have zero dates, not " + type);
    }
    if (year < 0 || year > 9999 || month < 0 || month > 12 || day < 0 || day > 31
        || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59
        || micros < 0 || micros > 999_999) {
      throw new IllegalArgumentException("field out of range in zero date " + text(year, month, day, hour, minute, second, micros));
    }
    if (type != ColumnType.TIMESTAMP && !holds(year, month, day)) {
      throw new IllegalArgumentException(text(year, month, day, hour, minute, second, micros)
          + " is a valid date, not a zero or invalid date");
    }
    if (type == ColumnType.TIMESTAMP && (year | month | day | hour | minute | second | micros) != 0) {
      throw new IllegalArgumentException("the only zero TIMESTAMP is 0000-00-00 00:00:00");
    }
    if (type == ColumnType.DATE && (hour | minute | second | micros) != 0) {
      throw new IllegalArgumentException("a zero DATE has no time of day");
    }
  }

  /**
   * Whether a DATE or DATETIME with these fields (each in its field's range) needs a ZeroDate: its
   * month or day is 0, or the day is past the end of the month (proleptic Gregorian, as MySQL).
   */
  public static boolean holds(int year, int month, int day) {
    return month == 0 || day == 0 || day > YearMonth.of(year, month).lengthOfMonth();
  }

  /** A zero or invalid DATE such as {@code 0000-00-00} or {@code 2024-02-31}. */
  public static ZeroDate date(int year, int month, int day) {
    return new ZeroDate(ColumnType.DATE, year, month, day, 0, 0, 0, 0);
  }

  /** The all-zero value of a type. */
  public static ZeroDate zero(ColumnType type) {
    return new ZeroDate(type, 0, 0, 0, 0, 0, 0, 0);
  }

  /** MySQL's text form: {@code 0000-00-00} or {@code 0000-00-00 00:00:00[.ffffff]}. */
  @Override
  public String toString() {
    if (type == ColumnType.DATE) {
      return String.format("%04d-%02d-%02d", year, month, day);
    }
    return text(year, month, day, hour, minute, second, micros);
  }

  private static String text(int year, int month, int day, int hour, int minute, int second, int micros) {
    String base = String.format("%04d-%02d-%02d %02d:%02d:%02d", year, month, day, hour, minute, second);
    return micros == 0 ? base : base + String.format(".%06d", micros);
  }
}
