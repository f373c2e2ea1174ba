package io.gridway.core.wire;

import io.gridway.core.event.Bytes;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.event.ZeroDate;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.DeclaredType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

/**
 * jqwik generators for schemas, rows and events of every column type, biased towards the values a
 * codec gets wrong: integer limits signed and unsigned (2^64−1), DECIMAL(65,30), NaN, ±Infinity,
 * −0.0, BIT widths 1..64, empty and 4-byte UTF-8 strings, empty and megabyte binaries, every
 * fractional-second precision, TIME below zero and past 24 h, zero dates, YEAR 0/1901/2155, ENUM
 * and SET, and NULL in every nullable column.
 */
final class WireArbitraries {
  static final BigInteger TWO_TO_64_MINUS_1 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private static final LocalDate FIRST_DAY = LocalDate.of(0, 1, 1);
  private static final LocalDate LAST_DAY = LocalDate.of(9999, 12, 31);
  private static final String[] NAME_SUFFIXES = {"", "_é", "_名前", "_😀"};
  private static final String[] CHARSETS = {"utf8mb4", "latin1", "utf8mb3", null};

  private WireArbitraries() {}

  // ---- text -------------------------------------------------------------------------------------

  /** Code points of every UTF-8 length, no surrogates. */
  static Arbitrary<Integer> codePoints() {
    return Arbitraries.frequencyOf(
        Tuple.of(10, Arbitraries.integers().between(0x20, 0x7E)),
        Tuple.of(2, Arbitraries.integers().between(0, 0x7F)),
        Tuple.of(2, Arbitraries.integers().between(0x80, 0x7FF)),
        Tuple.of(2, Arbitraries.integers().between(0x800, 0xFFFF).filter(c -> !Character.isSurrogate((char) c.intValue()))),
        Tuple.of(2, Arbitraries.integers().between(0x1F300, 0x1FAFF)),
        Tuple.of(1, Arbitraries.integers().between(0x10000, 0x10FFFF)));
  }

  static Arbitrary<String> strings(int maxCodePoints) {
    return codePoints().list().ofMaxSize(maxCodePoints).map(WireArbitraries::toText);
  }

  private static String toText(List<Integer> codePoints) {
    StringBuilder text = new StringBuilder(codePoints.size() * 2);
    codePoints.forEach(text::appendCodePoint);
    return text.toString();
  }

  private static Arbitrary<String> names() {
    return strings(12).filter(s -> !s.isEmpty());
  }

  // ---- schemas ----------------------------------------------------------------------------------

  static Arbitrary<Column> column(String name) {
    return Arbitraries.of(ColumnType.class).flatMap(type -> column(name, type)).flatMap(WireArbitraries::withSource);
  }

  /** Sometimes a default, and for BINARY(16)/BINARY(4) sometimes a declared type (MariaDB UUID/INET4/INET6). */
  private static Arbitrary<Column> withSource(Column c) {
    Arbitrary<String> defaults = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just((String) null)), Tuple.of(1, strings(12)));
    Arbitrary<DeclaredType> declared = c.type() == ColumnType.BINARY && (c.length() == 16 || c.length() == 4)
        ? Arbitraries.of(DeclaredType.values()).filter(d -> d.length() == c.length()).injectNull(0.3)
        : Arbitraries.just(null);
    return Combinators.combine(declared, defaults).as(c::withSource);
  }

  static Arbitrary<Column> column(String name, ColumnType type) {
    Arbitrary<Boolean> nullable = Arbitraries.of(true, true, false);
    Arbitrary<String> charset = Arbitraries.of(CHARSETS);
    return switch (type) {
      case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT -> Combinators.combine(Arbitraries.of(true, false), nullable)
          .as((u, n) -> new Column(name, type, u, n, 0, 0, 0, null, List.of()));
      case DECIMAL -> Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.integers().between(1, 65)), Tuple.of(1, Arbitraries.of(1, 65)))
          .flatMap(p -> Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().between(0, Math.min(30, p)),
                  Arbitraries.just(Math.min(30, p))), nullable)
              .as((s, n) -> new Column(name, type, false, n, 0, p, s, null, List.of())));
      case BIT -> Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().between(1, 64), Arbitraries.of(1, 63, 64)), nullable)
          .as((w, n) -> new Column(name, type, false, n, w, 0, 0, null, List.of()));
      case CHAR, VARCHAR -> Combinators.combine(Arbitraries.integers().between(0, 65_535), nullable, charset)
          .as((l, n, cs) -> new Column(name, type, false, n, l, 0, 0, cs, List.of()));
      case BINARY, VARBINARY -> Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().between(0, 65_535), Arbitraries.of(4, 16)), nullable)
          .as((l, n) -> new Column(name, type, false, n, l, 0, 0, null, List.of()));
      case TIME, DATETIME, TIMESTAMP -> Combinators.combine(Arbitraries.integers().between(0, 6), nullable)
          .as((fsp, n) -> new Column(name, type, false, n, 0, 0, fsp, null, List.of()));
      case ENUM, SET -> Combinators.combine(strings(8).list().ofMinSize(1).ofMaxSize(6).uniqueElements()
              .filter(m -> m.stream().noneMatch(s -> s.contains(","))), nullable)
          .as((members, n) -> new Column(name, type, false, n, 0, 0, 0, "utf8mb4", members));
      case TEXT, JSON -> Combinators.combine(nullable, charset).as((n, cs) -> new Column(name, type, false, n, 0, 0, 0, cs, List.of()));
      default -> nullable.map(n -> new Column(name, type, false, n, 0, 0, 0, null, List.of()));
    };
  }

  static Arbitrary<TableSchema> schemas() {
    return Arbitraries.integers().between(1, 12).flatMap(count -> {
      List<Arbitrary<Column>> columns = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        columns.add(Arbitraries.of(NAME_SUFFIXES).flatMap(suffix -> column("c" + index + suffix)));
      }
      Arbitrary<List<Column>> all = Combinators.combine(columns).as(list -> list);
      return Combinators.combine(all, names(), names(), names(), Arbitraries.integers().between(0, Math.min(3, count)))
          .flatAs((cols, source, db, table, keySize) -> Arbitraries.shuffle(cols.stream().map(Column::name).collect(Collectors.toList()))
              .map(shuffled -> TableSchema.of(source, db, table, cols, shuffled.subList(0, keySize))));
    });
  }

  // ---- values -----------------------------------------------------------------------------------

  /** Values of a column, NULL included when it is nullable. */
  static Arbitrary<Object> values(Column c) {
    Arbitrary<Object> values = nonNullValues(c);
    return c.nullable() ? values.injectNull(0.15) : values;
  }

  @SuppressWarnings("unchecked")
  static Arbitrary<Object> nonNullValues(Column c) {
    boolean u = c.unsigned();
    Arbitrary<?> values = switch (c.type()) {
      case TINYINT -> integers(u ? 0 : -128, u ? 255 : 127);
      case SMALLINT -> integers(u ? 0 : -32_768, u ? 65_535 : 32_767);
      case MEDIUMINT -> integers(u ? 0 : -(1L << 23), u ? (1L << 24) - 1 : (1L << 23) - 1);
      case INT -> integers(u ? 0 : Integer.MIN_VALUE, u ? 0xFFFF_FFFFL : Integer.MAX_VALUE);
      case BIGINT -> u
          ? edgy(Arbitraries.bigIntegers().between(BigInteger.ZERO, TWO_TO_64_MINUS_1).withDistribution(RandomDistribution.uniform()),
              List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(63),
                  TWO_TO_64_MINUS_1))
          : integers(Long.MIN_VALUE, Long.MAX_VALUE);
      case DECIMAL -> {
        BigInteger max = BigInteger.TEN.pow(c.precision()).subtract(BigInteger.ONE);
        yield edgy(Arbitraries.bigIntegers().between(max.negate(), max).withDistribution(RandomDistribution.uniform()),
            List.of(max, max.negate(), BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate()))
            .map(v -> new BigDecimal(v, c.scale()));
      }
      case FLOAT -> Arbitraries.oneOf(
          Arbitraries.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f, Float.MIN_VALUE,
              Float.MAX_VALUE, -Float.MAX_VALUE),
          Arbitraries.integers().map(Float::intBitsToFloat).map(f -> f.isNaN() ? Float.NaN : f));
      case DOUBLE -> Arbitraries.oneOf(
          Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE,
              Double.MAX_VALUE, -Double.MAX_VALUE),
          Arbitraries.longs().map(Double::longBitsToDouble).map(d -> d.isNaN() ? Double.NaN : d));
      case BIT -> c.length() == 64 ? integers(Long.MIN_VALUE, Long.MAX_VALUE) : integers(0, (1L << c.length()) - 1);
      case YEAR -> Arbitraries.oneOf(Arbitraries.of(0L, 1901L, 2155L), Arbitraries.longs().between(1901, 2155));
      case CHAR, VARCHAR, TEXT -> Arbitraries.frequencyOf(Tuple.of(20, strings(40)), Tuple.of(1, strings(1200)));
      case ENUM -> Arbitraries.of(c.members());
      case SET -> Arbitraries.subsetOf(c.members())
          .map(set -> c.members().stream().filter(set::contains).collect(Collectors.joining(",")));
      case JSON -> Arbitraries.oneOf(
          Arbitraries.of("{}", "[]", "null", "{\"a\":[1,2.5,\"😀\"],\"b\":{\"c\":null}}", "  {\"x\" : true }  ", "42"),
          strings(20));
      case BINARY, VARBINARY, BLOB, GEOMETRY -> Arbitraries.frequencyOf(
          Tuple.of(30, Arbitraries.bytes().array(byte[].class).ofMaxSize(64)),
          Tuple.of(1, Arbitraries.randomValue(r -> {
            byte[] big = new byte[(1 << 20) + r.nextInt(4096)];
            r.nextBytes(big);
            return big;
          }))).map(Bytes::wrap);
      case DATE -> Arbitraries.oneOf(dates(), zeroDates());
      case TIME -> integers(-Temporals.MAX_TIME_MICROS, Temporals.MAX_TIME_MICROS, 86_400_000_000L, -86_400_000_000L)
          .map(micros -> truncate(micros, c.scale())).map(micros -> Duration.of(micros, ChronoUnit.MICROS));
      case DATETIME -> Arbitraries.frequencyOf(Tuple.of(5, dateTimes(c.scale())), Tuple.of(1, zeroDateTimes()));
      case TIMESTAMP -> Arbitraries.frequencyOf(
          Tuple.of(5, integers(1, Temporals.MAX_TIMESTAMP_MICROS).map(m -> Temporals.instant(truncate(m, c.scale())))
              .filter(t -> t.getEpochSecond() > 0 || t.getNano() > 0)),
          Tuple.of(1, Arbitraries.just(ZeroDate.zero(ColumnType.TIMESTAMP))));
    };
    return (Arbitrary<Object>) values;
  }

  /** Longs spread evenly over [min, max] (jqwik's default favours small ones), often a boundary. */
  private static Arbitrary<Long> integers(long min, long max, Long... more) {
    List<Long> edges = new ArrayList<>(List.of(min, max, Math.max(min, Math.min(max, 0L)), Math.max(min, Math.min(max, 1L)),
        Math.max(min, Math.min(max, -1L))));
    edges.addAll(List.of(more));
    return edgy(Arbitraries.longs().between(min, max).withDistribution(RandomDistribution.uniform()), edges);
  }

  private static <T> Arbitrary<T> edgy(Arbitrary<T> random, List<T> edges) {
    return Arbitraries.frequencyOf(Tuple.of(3, random), Tuple.of(1, Arbitraries.of(edges)));
  }

  /** Microseconds cut to {@code fsp} fractional digits, as MySQL stores them. */
  private static long truncate(long micros, int fsp) {
    long unit = (long) Math.pow(10, 6 - fsp);
    return micros - micros % unit;
  }

  private static Arbitrary<LocalDate> dates() {
    return integers(FIRST_DAY.toEpochDay(), LAST_DAY.toEpochDay(), LocalDate.of(2000, 2, 29).toEpochDay())
        .map(LocalDate::ofEpochDay);
  }

  private static Arbitrary<ZeroDate> zeroDates() {
    Arbitrary<Integer> years = Arbitraries.integers().between(0, 9999);
    return Arbitraries.oneOf(
        Arbitraries.just(ZeroDate.zero(ColumnType.DATE)),
        Combinators.combine(years, Arbitraries.integers().between(0, 31)).as((y, d) -> ZeroDate.date(y, 0, d)),
        Combinators.combine(years, Arbitraries.integers().between(0, 12)).as((y, m) -> ZeroDate.date(y, m, 0)));
  }

  private static Arbitrary<LocalDateTime> dateTimes(int fsp) {
    return Combinators.combine(dates(), integers(0, 86_400_000_000L - 1))
        .as((d, micros) -> d.atStartOfDay().plus(truncate(micros, fsp), ChronoUnit.MICROS));
  }

  private static Arbitrary<ZeroDate> zeroDateTimes() {
    return Combinators.combine(zeroDates(), Arbitraries.integers().between(0, 23), Arbitraries.integers().between(0, 59),
            Arbitraries.integers().between(0, 59), Arbitraries.integers().between(0, 999_999))
        .as((z, h, m, s, us) -> new ZeroDate(ColumnType.DATETIME, z.year(), z.month(), z.day(), h, m, s, us));
  }

  // ---- rows and events --------------------------------------------------------------------------

  static Arbitrary<Row> rows(TableSchema schema) {
    List<Arbitrary<Object>> columns = new ArrayList<>();
    for (Column c : schema.columns()) {
      columns.add(values(c));
    }
    return Combinators.combine(columns).as(values -> Row.of(schema, values.toArray()));
  }

  static Arbitrary<ChangeEvent> events(TableSchema schema) {
    Arbitrary<Operation> ops = Arbitraries.frequency(Tuple.of(3, Operation.INSERT), Tuple.of(3, Operation.UPDATE),
        Tuple.of(2, Operation.DELETE), Tuple.of(1, Operation.TRUNCATE), Tuple.of(1, Operation.SCHEMA_CHANGE),
        Tuple.of(1, Operation.READ));
    return Combinators.combine(ops, rows(schema), rows(schema), integers(Long.MIN_VALUE, Long.MAX_VALUE),
            integers(Long.MIN_VALUE, Long.MAX_VALUE), Arbitraries.integers().between(0, ChangeEvent.MAX_PARTITION),
            Arbitraries.oneOf(Arbitraries.just(""), strings(10)), strings(60))
        .as((op, before, after, scn, commitTime, partition, origin, ddl) -> new ChangeEvent(schema, op,
            op.hasBefore() ? before : null,
            op.hasAfter() ? after : null,
            op == Operation.SCHEMA_CHANGE ? ddl : null, new Scn(scn), commitTime, partition, origin));
  }

  static Arbitrary<ChangeEvent> events() {
    return schemas().flatMap(WireArbitraries::events);
  }

  static Arbitrary<SourcePosition> positions() {
    return Arbitraries.oneOf(
        Arbitraries.just((SourcePosition) null),
        Combinators.combine(strings(20), Arbitraries.longs().between(0, 0xFFFF_FFFFL), strings(40))
            .as(SourcePosition.Binlog::new),
        Combinators.combine(Arbitraries.longs().greaterOrEqual(0), Arbitraries.longs().greaterOrEqual(0))
            .as(SourcePosition.Trail::new),
        Arbitraries.longs().greaterOrEqual(0).map(SourcePosition.Generated::new));
  }
}
