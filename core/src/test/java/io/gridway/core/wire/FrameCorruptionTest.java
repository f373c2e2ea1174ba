package io.gridway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import io.gridway.core.wire.WireFormatException.Reason;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Damaged input of every kind is a {@link WireFormatException} with the right {@link Reason}:
 * every single-bit flip, every truncation, bad headers, and payloads that pass the CRC but break
 * the payload rules.
 */
class FrameCorruptionTest {

  // ---- bit flips --------------------------------------------------------------------------------

  @Test
  void everySingleBitFlipOfEveryVectorFrameIsDetected() {
    byte[] vectors = WireVectorsTest.vectors();
    FrameReader reader = readerKnowing(schemasOf(vectors));
    List<String> problems = new ArrayList<>();
    int flips = 0;
    for (byte[] frame : split(vectors)) {
      for (int i = 0; i < frame.length; i++) {
        for (int bit = 0; bit < 8; bit++) {
          String problem = flipProblem(reader, frame, i, bit);
          if (problem != null) {
            problems.add(problem);
          }
          flips++;
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(flips).isEqualTo(vectors.length * 8);
  }

  @Provide
  Arbitrary<ChangeEvent> events() {
    return WireArbitraries.events();
  }

  @Property(tries = 300)
  void aBitFlipInARandomEventFrameIsDetected(@ForAll("events") ChangeEvent e, @ForAll @IntRange(min = 0, max = 1 << 20) int position,
      @ForAll @IntRange(min = 0, max = 7) int bit) {
    byte[] frame = Frames.eventFrame(e);
    assertFlipDetected(readerKnowing(e.schema()), frame, position % frame.length, bit);
  }

  private static FrameReader readerKnowing(TableSchema... schemas) {
    FrameReader reader = new FrameReader();
    for (TableSchema s : schemas) {
      reader.addSchema(s);
    }
    return reader;
  }

  /** Which reason a flip of {@code bit} in byte {@code i} must give, by where it falls (§1). */
  private static void assertFlipDetected(FrameReader reader, byte[] frame, int i, int bit) {
    String problem = flipProblem(reader, frame, i, bit);
    assertThat(problem).as("flip of bit %d in byte %d", bit, i).isNull();
  }

  /** Null when the flip is detected with the right reason, else what went wrong (no AssertJ: this runs 28,000 times). */
  private static String flipProblem(FrameReader reader, byte[] frame, int i, int bit) {
    byte[] flipped = frame.clone();
    flipped[i] ^= (byte) (1 << bit);
    ByteBuffer in = ByteBuffer.wrap(flipped);
    try {
      if (reader.next(in) == null) {
        reader.requireEnd(in);
      }
      return "flip of bit " + bit + " in byte " + i + " went unnoticed";
    } catch (WireFormatException e) {
      Reason expected = expectedReason(frame, flipped, i);
      return e.reason() == expected && e.frameOffset() == 0 ? null
          : "flip of bit " + bit + " in byte " + i + ": expected " + expected + ", got " + e.getMessage();
    }
  }

  private static Reason expectedReason(byte[] original, byte[] flipped, int i) {
    if (i < 2) {
      return Reason.BAD_MAGIC;
    }
    if (i == 2) {
      return Reason.UNSUPPORTED_VERSION;
    }
    if (i == 3) {
      return FrameType.ofCode(flipped[3]) == null ? Reason.UNKNOWN_FRAME_TYPE : Reason.CRC_MISMATCH;
    }
    if (i < 8) {
      long length = ByteBuffer.wrap(flipped).getInt(4) & 0xFFFF_FFFFL;
      if (length > WireFormat.MAX_PAYLOAD) {
        return Reason.FRAME_TOO_LARGE;
      }
      return length > original.length - 12 ? Reason.TRUNCATED : Reason.CRC_MISMATCH;
    }
    return Reason.CRC_MISMATCH;
  }

  // ---- truncation -------------------------------------------------------------------------------

  @Test
  void everyTruncationIsAnIncompleteFrameForAStreamAndTruncatedAtTheEnd() {
    byte[] vectors = WireVectorsTest.vectors();
    FrameReader reader = readerKnowing(schemasOf(vectors));
    int start = 0;
    List<String> problems = new ArrayList<>();
    for (byte[] frame : split(vectors)) {
      // Cutting the file anywhere inside this frame leaves the frames before it whole and this one
      // a valid prefix: null for a stream, TRUNCATED at this frame's offset at the end of input.
      for (int cut = start + 1; cut < start + frame.length; cut++) {
        ByteBuffer in = ByteBuffer.wrap(vectors, 0, cut).position(start);
        if (reader.next(in) != null || in.position() != start) {
          problems.add("a cut at " + cut + " did not wait for more bytes");
          continue;
        }
        try {
          reader.requireEnd(in);
          problems.add("a cut at " + cut + " is not TRUNCATED");
        } catch (WireFormatException e) {
          if (e.reason() != Reason.TRUNCATED || e.frameOffset() != start) {
            problems.add("a cut at " + cut + ": " + e.getMessage());
          }
        }
      }
      ByteBuffer whole = ByteBuffer.wrap(vectors, 0, start + frame.length).position(start);
      assertThat(reader.next(whole)).isNotNull();
      reader.requireEnd(whole);
      start += frame.length;
    }
    assertThat(problems).isEmpty();
    assertThat(start).isEqualTo(vectors.length);
  }

  // ---- headers ----------------------------------------------------------------------------------

  @Test
  void headerFaultsAreReportedInTheSpecsOrder() {
    byte[] good = Frames.frame(FrameType.HEARTBEAT.code(), new Payload().i64(1).i64(2).toBytes());
    assertReason(raw(good, f -> f.put(0, (byte) 'g')), Reason.BAD_MAGIC);
    assertReason(raw(good, f -> f.put(1, (byte) 'X').put(2, (byte) 9)), Reason.BAD_MAGIC);
    assertReason(raw(good, f -> f.put(2, (byte) 2)), Reason.UNSUPPORTED_VERSION);
    assertReason(raw(good, f -> f.put(2, (byte) 0).put(3, (byte) 0)), Reason.UNSUPPORTED_VERSION);
    assertReason(raw(good, f -> f.put(3, (byte) 0)), Reason.UNKNOWN_FRAME_TYPE);
    assertReason(raw(good, f -> f.put(3, (byte) 6).putInt(4, -1)), Reason.UNKNOWN_FRAME_TYPE);
    assertReason(raw(good, f -> f.putInt(4, WireFormat.MAX_PAYLOAD + 1)), Reason.FRAME_TOO_LARGE);
    assertReason(raw(good, f -> f.putInt(4, 17)), Reason.TRUNCATED);
    assertReason(raw(good, f -> f.putInt(8, f.getInt(8) + 1)), Reason.CRC_MISMATCH);
    assertReason(raw(good, f -> f.put(20, (byte) 1)), Reason.CRC_MISMATCH);
  }

  @Test
  void aPartialHeaderFailsAsSoonAsItsBytesAreWrong() {
    FrameReader reader = new FrameReader();
    assertThat(reader.next(ByteBuffer.wrap(new byte[] {'G', 'W', 1, 2, 0x10}))).isNull();
    assertReasonOf(() -> reader.next(ByteBuffer.wrap(new byte[] {'X'})), Reason.BAD_MAGIC);
    assertReasonOf(() -> reader.next(ByteBuffer.wrap(new byte[] {'G', 'W', 7})), Reason.UNSUPPORTED_VERSION);
    assertReasonOf(() -> reader.next(ByteBuffer.wrap(new byte[] {'G', 'W', 1, 9})), Reason.UNKNOWN_FRAME_TYPE);
    assertReasonOf(() -> reader.next(ByteBuffer.wrap(new byte[] {'G', 'W', 1, 2, 0x10, 0, 0, 1})), Reason.FRAME_TOO_LARGE);
    assertReasonOf(() -> reader.next(ByteBuffer.wrap(new byte[] {'G', 'W', 1, 2, 0x11})), Reason.FRAME_TOO_LARGE);
    assertReasonOf(() -> reader.requireEnd(ByteBuffer.wrap(new byte[] {'G'})), Reason.TRUNCATED);
  }

  @Test
  void theOffsetNamesTheBadFrameNotTheFirst() {
    byte[] good = Frames.frame(FrameType.HEARTBEAT.code(), new Payload().i64(1).i64(2).toBytes());
    byte[] bad = raw(good, f -> f.put(15, (byte) 0x55));
    ByteBuffer in = ByteBuffer.wrap(Frames.concat(good, good, bad));
    FrameReader reader = new FrameReader();
    reader.next(in);
    reader.next(in);
    WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> reader.next(in));
    assertThat(e.reason()).isEqualTo(Reason.CRC_MISMATCH);
    assertThat(e.frameOffset()).isEqualTo(2L * good.length);
    assertThat(in.position()).isEqualTo(2 * good.length); // still at the bad frame
  }

  // ---- payloads that pass the CRC but break the rules ---------------------------------------------

  /** A table with a column of each kind whose value the decoder range-checks. */
  private static final TableSchema CHECKED = TableSchema.of("src", "db", "checked", List.of(
      new Column("id", ColumnType.BIGINT, false, false, 0, 0, 0, null, List.of()),
      new Column("name", ColumnType.VARCHAR, false, true, 20, 0, 0, "utf8mb4", List.of()),
      Column.of("d", ColumnType.DATE),
      Column.decimal("price", 10, 2),
      Column.temporal("dt", ColumnType.DATETIME, 6),
      Column.of("m", ColumnType.MEDIUMINT),
      Column.bit("b", 3),
      Column.of("y", ColumnType.YEAR),
      Column.temporal("t", ColumnType.TIME, 0),
      Column.temporal("ts", ColumnType.TIMESTAMP, 0)), List.of("id"));

  private static final ChangeEvent CHECKED_INSERT = ChangeEvent.insert(CHECKED, Row.of(CHECKED, 1L, "abc",
      LocalDate.of(2024, 1, 31), new BigDecimal("12.34"), LocalDateTime.of(2024, 1, 31, 23, 59, 59), 5L, 5L, 2000L,
      Duration.ofHours(25), Instant.ofEpochSecond(1_700_000_000L)), new Scn(5), 6, 7);

  /** The absolute offset of each column's value in the frame of {@link #CHECKED_INSERT}. */
  private static int[] checkedOffsets(byte[] frame) {
    FrameReader reader = new FrameReader();
    reader.addSchema(CHECKED);
    ByteBuffer in = ByteBuffer.wrap(frame);
    assertThat(reader.next(in)).isEqualTo(FrameType.EVENT);
    int[] offsets = new int[CHECKED.columnCount()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = reader.event().after().valueOffset(i);
    }
    return offsets;
  }

  @Test
  void payloadRuleViolationsWithAValidCrcAreMalformed() {
    byte[] frame = Frames.eventFrame(CHECKED_INSERT);
    int[] at = checkedOffsets(frame);
    int row = 12 + WireFormat.EVENT_ORIGIN + 2; // the after image: no origin, no DDL
    List<byte[]> bad = List.of(
        with(frame, f -> f.putInt(at[1] - 4, 1_000)), // a string length past the payload's end
        with(frame, f -> f.putInt(at[1] - 4, -1)), // a length of 4 GiB
        with(frame, f -> f.putShort(row, (short) 11)), // a row with more columns than the schema
        with(frame, f -> f.putShort(row, (short) 9)),
        with(frame, f -> f.put(12 + WireFormat.EVENT_FLAGS, (byte) 3)), // INSERT with a before image
        with(frame, f -> f.put(12 + WireFormat.EVENT_FLAGS, (byte) 0)),
        with(frame, f -> f.put(12 + WireFormat.EVENT_FLAGS, (byte) 6)),
        with(frame, f -> f.put(12 + WireFormat.EVENT_OP, (byte) 1)), // UPDATE with only an after image
        with(frame, f -> f.put(12 + WireFormat.EVENT_OP, (byte) 6)), // no such operation
        with(frame, f -> f.put(12 + WireFormat.EVENT_OP, (byte) 5).put(12 + WireFormat.EVENT_FLAGS, (byte) 3)), // READ with a before image
        with(frame, f -> f.put(row + 2, (byte) 1)), // NULL in the NOT NULL id
        with(frame, f -> f.put(row + 3, (byte) 0x80)), // a padding bit of the null bitmap
        with(frame, f -> f.put(at[1], (byte) 0xC0).put(at[1] + 1, (byte) 0x80)), // overlong UTF-8
        with(frame, f -> f.put(at[1], (byte) 0xFF)),
        with(frame, f -> f.putInt(at[2], 2024 << 9 | 13 << 5 | 1)), // month 13
        with(frame, f -> f.putInt(at[2], 2023 << 9 | 15 << 5 | 29)), // month 15 (2023-02-29 is an invalid date, kept)
        with(frame, f -> f.putInt(at[2], 1 << 23)), // bits above the year
        with(frame, f -> f.putInt(at[2], 10_000 << 9 | 1 << 5 | 1)), // year 10000
        with(frame, f -> f.put(at[3] - 2, (byte) 3)), // DECIMAL scale differs from the column's
        with(frame, f -> f.put(at[3] - 1, (byte) 0)), // DECIMAL of 0 bytes
        with(frame, f -> f.putLong(at[4], Temporals.packDateTime(2024, 1, 1, 24, 0, 0, 0))), // hour 24
        with(frame, f -> f.putLong(at[4], Temporals.packDateTime(2024, 1, 1, 0, 60, 0, 0))),
        with(frame, f -> f.putLong(at[4], Temporals.packDateTime(2024, 1, 1, 0, 0, 60, 0))),
        with(frame, f -> f.putLong(at[4], Temporals.packDateTime(2024, 1, 1, 0, 0, 0, 1_000_000))),
        with(frame, f -> f.putLong(at[4], Temporals.packDateTime(2024, 14, 30, 0, 0, 0, 0))),
        with(frame, f -> f.putLong(at[4], -1L)),
        with(frame, f -> f.putInt(at[5], 1 << 23)), // MEDIUMINT above its range
        with(frame, f -> f.putInt(at[5], -(1 << 23) - 1)),
        with(frame, f -> f.putLong(at[6], 8)), // BIT(3) holding a fourth bit
        with(frame, f -> f.putShort(at[7], (short) 1900)), // YEAR
        with(frame, f -> f.putShort(at[7], (short) 2156)),
        with(frame, f -> f.putLong(at[8], Temporals.MAX_TIME_MICROS + 1)), // TIME
        with(frame, f -> f.putLong(at[8], -Temporals.MAX_TIME_MICROS - 1)),
        with(frame, f -> f.putLong(at[9], -1)), // TIMESTAMP before 1970
        with(frame, f -> f.putLong(at[9], Temporals.MAX_TIMESTAMP_MICROS + 1)),
        Frames.frame(FrameType.EVENT.code(), Arrays.copyOf(Frames.payload(frame), Frames.payload(frame).length + 1)),
        Frames.frame(FrameType.EVENT.code(), Arrays.copyOf(Frames.payload(frame), Frames.payload(frame).length - 1)),
        Frames.frame(FrameType.EVENT.code(), Arrays.copyOf(Frames.payload(frame), 27)));
    for (int k = 0; k < bad.size(); k++) {
      byte[] f = bad.get(k);
      WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> Frames.readOne(f, CHECKED));
      assertThat(e).as("case %d", k).isNotNull();
      assertThat(e.reason()).as("case %d: %s", k, e.getMessage()).isEqualTo(Reason.MALFORMED);
    }
  }

  @Test
  void aStringLengthReachingIntoTheNextFrameIsMalformed() {
    byte[] frame = Frames.eventFrame(CHECKED_INSERT);
    int[] at = checkedOffsets(frame);
    int payloadEnd = frame.length;
    byte[] overreaching = with(frame, f -> f.putInt(at[1] - 4, payloadEnd - at[1] + 8));
    ByteBuffer in = ByteBuffer.wrap(Frames.concat(overreaching, frame));
    FrameReader reader = new FrameReader();
    reader.addSchema(CHECKED);
    assertReasonOf(() -> reader.next(in), Reason.MALFORMED);
  }

  /** A one-column table to build DECIMAL values by hand. */
  private static final TableSchema DECIMALS = TableSchema.of("src", "db", "decimals", List.of(Column.decimal("v", 2, 1)), List.of());

  private static byte[] decimalEvent(int... valueBytes) {
    Payload p = Payload.eventHeader(DECIMALS.id(), 0, WireFormat.FLAG_AFTER).u16(1).u8(0);
    for (int b : valueBytes) {
      p.u8(b);
    }
    return p.frame(FrameType.EVENT);
  }

  @Test
  void decimalsMustBeMinimalAndWithinTheirPrecision() {
    assertThat(Frames.readOne(decimalEvent(1, 1, 0x63), DECIMALS)).isEqualTo(FrameType.EVENT); // 9.9
    assertThat(Frames.readOne(decimalEvent(1, 1, 0x9D), DECIMALS)).isEqualTo(FrameType.EVENT); // -9.9
    assertReasonOf(() -> Frames.readOne(decimalEvent(1, 1, 0x64), DECIMALS), Reason.MALFORMED); // 10.0
    assertReasonOf(() -> Frames.readOne(decimalEvent(1, 1, 0x9C), DECIMALS), Reason.MALFORMED); // -10.0
    assertReasonOf(() -> Frames.readOne(decimalEvent(1, 2, 0, 5), DECIMALS), Reason.MALFORMED); // not minimal
    assertReasonOf(() -> Frames.readOne(decimalEvent(1, 2, 0xFF, 0xFB), DECIMALS), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(decimalEvent(1, 31), DECIMALS), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(decimalEvent(0, 1, 5), DECIMALS), Reason.MALFORMED); // scale 0
    assertReasonOf(() -> Frames.readOne(decimalEvent(1), DECIMALS), Reason.MALFORMED);
  }

  @Test
  void controlFramesMustFillTheirPayloadExactly() {
    assertReasonOf(() -> Frames.readOne(new Payload().i64(1).raw(new byte[7]).frame(FrameType.HEARTBEAT)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(new Payload().i64(1).i64(2).u8(0).frame(FrameType.HEARTBEAT)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(new Payload().frame(FrameType.HEARTBEAT)), Reason.MALFORMED);
    Payload eow = new Payload().i64(1).i64(2).name("");
    assertReasonOf(() -> Frames.readOne(copy(eow).u8(4).frame(FrameType.END_OF_WINDOW)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(copy(eow).frame(FrameType.END_OF_WINDOW)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(copy(eow).u8(0).u8(0).frame(FrameType.END_OF_WINDOW)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(copy(eow).u8(1).name("f").i64(1L << 32).blob("").frame(FrameType.END_OF_WINDOW)),
        Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(copy(eow).u8(2).i64(-1).i64(0).frame(FrameType.END_OF_WINDOW)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(copy(eow).u8(3).i64(-5).frame(FrameType.END_OF_WINDOW)), Reason.MALFORMED);
    assertThat(Frames.readOne(copy(eow).u8(3).i64(5).frame(FrameType.END_OF_WINDOW))).isEqualTo(FrameType.END_OF_WINDOW);
    Payload error = new Payload().u16(410).name("scn-evicted").i64(3);
    assertThat(Frames.readOne(copy(error).blob("gone").frame(FrameType.ERROR))).isEqualTo(FrameType.ERROR);
    assertReasonOf(() -> Frames.readOne(copy(error).u32(5).raw((byte) 'g').frame(FrameType.ERROR)), Reason.MALFORMED);
    assertReasonOf(() -> Frames.readOne(new Payload().u16(410).u16(40).frame(FrameType.ERROR)), Reason.MALFORMED);
  }

  private static Payload copy(Payload p) {
    return new Payload().raw(p.toBytes());
  }

  private static Payload schemaHead() {
    return new Payload().i64(0).name("src").name("db").name("t");
  }

  @Test
  void badSchemaPayloadsAreMalformed() {
    List<byte[]> bad = List.of(
        schemaHead().u16(0).u16(0).frame(FrameType.SCHEMA), // no columns
        schemaHead().u16(1).column("a", 24, 0, 0, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // unknown type
        schemaHead().u16(1).column("a", 3, 4, 0, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // undefined flag
        schemaHead().u16(1).column("a", 10, 1, 10, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // UNSIGNED VARCHAR
        schemaHead().u16(1).column("a", 3, 0, 11, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // INT with a length
        schemaHead().u16(1).column("a", 5, 0, 0, 66, 0, "").u16(0).frame(FrameType.SCHEMA), // DECIMAL(66)
        schemaHead().u16(1).column("a", 8, 0, 65, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // BIT(65)
        schemaHead().u16(1).column("a", 12, 0, 0, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // ENUM without members
        schemaHead().u16(1).column("", 3, 0, 0, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // empty name
        schemaHead().u16(1).column("a", 3, 0, 1L << 31, 0, 0, "").u16(0).frame(FrameType.SCHEMA), // length ≥ 2^31
        schemaHead().u16(2).column("a", 3, 0, 0, 0, 0, "").column("a", 3, 0, 0, 0, 0, "").u16(0).frame(FrameType.SCHEMA),
        schemaHead().u16(1).column("a", 3, 0, 0, 0, 0, "").u16(1).u16(1).frame(FrameType.SCHEMA), // key past the columns
        schemaHead().u16(1).column("a", 3, 0, 0, 0, 0, "").u16(1).frame(FrameType.SCHEMA), // key count, no key
        schemaHead().u16(1).column("a", 3, 0, 0, 0, 0, "").u16(0).u8(0).frame(FrameType.SCHEMA), // a byte left over
        schemaHead().u16(65_535).frame(FrameType.SCHEMA), // a column count the payload cannot hold
        schemaHead().u16(1).name("a").u8(12).u8(0).u32(0).u8(0).u8(0).name("").u16(65_535).frame(FrameType.SCHEMA),
        new Payload().i64(0).name("").name("db").name("t").u16(1).column("a", 3, 0, 0, 0, 0, "").u16(0).frame(FrameType.SCHEMA));
    for (int k = 0; k < bad.size(); k++) {
      byte[] f = bad.get(k);
      WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> Frames.readOne(f));
      assertThat(e).as("case %d", k).isNotNull();
      assertThat(e.reason()).as("case %d: %s", k, e.getMessage()).isEqualTo(Reason.MALFORMED);
    }
  }

  @Test
  void aSchemaWhoseIdIsNotItsFingerprintIsRejected() {
    byte[] frame = Frames.schemaFrame(CHECKED);
    byte[] wrong = with(frame, f -> f.putLong(12, CHECKED.id() ^ 1));
    assertReasonOf(() -> Frames.readOne(wrong), Reason.SCHEMA_ID_MISMATCH);
    // A hand-built payload (the spec's layout, not the encoder's) with the right id is accepted.
    TableSchema one = TableSchema.of("src", "db", "t", List.of(Column.unsigned("a", ColumnType.INT)), List.of("a"));
    byte[] built = new Payload().i64(one.id()).name("src").name("db").name("t").u16(1).column("a", 3, 3, 0, 0, 0, "")
        .u16(1).u16(0).frame(FrameType.SCHEMA);
    assertThat(built).isEqualTo(Frames.schemaFrame(one));
  }

  @Test
  void anEventBeforeItsSchemaIsUnknownSchema() {
    byte[] frame = Frames.eventFrame(CHECKED_INSERT);
    byte[] schema = Frames.schemaFrame(CHECKED);
    ByteBuffer in = ByteBuffer.wrap(Frames.concat(frame, schema, frame));
    FrameReader reader = new FrameReader();
    WireFormatException e = catchThrowableOfType(WireFormatException.class, () -> reader.next(in));
    assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA);
    in.position(frame.length);
    assertThat(reader.next(in)).isEqualTo(FrameType.SCHEMA);
    assertThat(reader.next(in)).isEqualTo(FrameType.EVENT);
  }

  @Test
  void anInsertFrameWithOperationFiveIsAReadOfTheSameRow() {
    // READ (code 5) has INSERT's layout: only the operation byte differs, so a version-1 decoder needs no new field
    byte[] read = with(Frames.eventFrame(CHECKED_INSERT), f -> f.put(12 + WireFormat.EVENT_OP, (byte) 5));
    assertThat(Frames.eventFrame(ChangeEvent.read(CHECKED, CHECKED_INSERT.after(), CHECKED_INSERT.scn(),
        CHECKED_INSERT.commitTimeMicros(), CHECKED_INSERT.partition()))).isEqualTo(read);
    FrameReader reader = new FrameReader();
    reader.addSchema(CHECKED);
    assertThat(reader.next(ByteBuffer.wrap(read))).isEqualTo(FrameType.EVENT);
    assertThat(reader.event().op()).isEqualTo(io.gridway.core.event.Operation.READ);
    assertThat(reader.event().before()).isNull();
  }

  @Test
  void afterAFailureTheReaderHasNoCurrentFrame() {
    FrameReader reader = new FrameReader();
    reader.addSchema(CHECKED);
    assertThat(reader.next(ByteBuffer.wrap(Frames.eventFrame(CHECKED_INSERT)))).isEqualTo(FrameType.EVENT);
    byte[] bad = with(Frames.eventFrame(CHECKED_INSERT), f -> f.put(12 + WireFormat.EVENT_OP, (byte) 6));
    assertThatThrownBy(() -> reader.next(ByteBuffer.wrap(bad))).isInstanceOf(WireFormatException.class);
    assertThatThrownBy(reader::event).isInstanceOf(IllegalStateException.class);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** A copy of a frame changed by {@code patch} and given a correct CRC again. */
  static byte[] with(byte[] frame, Consumer<ByteBuffer> patch) {
    return Frames.reseal(raw(frame, patch));
  }

  /** A copy of a frame changed by {@code patch}, CRC untouched. */
  static byte[] raw(byte[] frame, Consumer<ByteBuffer> patch) {
    byte[] copy = frame.clone();
    patch.accept(ByteBuffer.wrap(copy));
    return copy;
  }

  private static void assertReason(byte[] frame, Reason reason) {
    assertReasonOf(() -> Frames.readOne(frame), reason);
  }

  private static void assertReasonOf(Runnable action, Reason reason) {
    WireFormatException e = catchThrowableOfType(WireFormatException.class, action::run);
    assertThat(e).as("expected %s", reason).isNotNull();
    assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason);
  }

  static List<byte[]> split(byte[] frames) {
    List<byte[]> list = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(frames);
    for (int at = 0; at < frames.length; ) {
      int size = FrameReader.frameSize(in, at);
      list.add(Arrays.copyOfRange(frames, at, at + size));
      at += size;
    }
    return list;
  }

  private static TableSchema[] schemasOf(byte[] frames) {
    List<TableSchema> schemas = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(frames);
    FrameReader reader = new FrameReader();
    for (FrameType t; (t = reader.next(in)) != null; ) {
      if (t == FrameType.SCHEMA) {
        schemas.add(reader.schema());
      }
    }
    return schemas.toArray(TableSchema[]::new);
  }
}
