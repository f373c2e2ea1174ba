package io.gridway.fetcher.goldengate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import io.gridway.core.event.Bytes;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The decoders {@link OracleTypes} hands out: one small class per value family. */
final class ValueDecoders {
  static final ValueDecoder TEXT = text -> text;
  static final ValueDecoder BASE64 = new Base64Decoder();
  static final ValueDecoder FLOAT = new FloatDecoder();
  static final ValueDecoder DOUBLE = new DoubleDecoder();

  private static final long[] POWERS = new long[19];

  static {
    POWERS[0] = 1;
    for (int i = 1; i < POWERS.length; i++) {
      POWERS[i] = POWERS[i - 1] * 10;
    }
  }

  private ValueDecoders() {}

  /** NUMBER(p) with p ≤ 18: a Long of at most {@code digits} digits. */
  static ValueDecoder integer(int digits) {
    return new IntegerDecoder(POWERS[digits] - 1, digits);
  }

  static ValueDecoder decimal(int precision, int scale) {
    return new DecimalDecoder(precision, scale);
  }

  /** DATE and TIMESTAMP (local date-time); zoned: TIMESTAMP WITH [LOCAL] TIME ZONE, held in UTC. */
  static ValueDecoder dateTime(boolean zoned) {
    return zoned ? OracleTemporal::utcDateTime : OracleTemporal::localDateTime;
  }

  private static final class IntegerDecoder implements ValueDecoder {
    private final long max;
    private final int digits;

    IntegerDecoder(long max, int digits) {
      this.max = max;
      this.digits = digits;
    }

    @Override
    public Object fromText(String text) {
      long value;
      try {
        value = Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        value = integral(parseDecimal(text));
      }
      return checked(value);
    }

    @Override
    public Object fromJson(JsonParser parser) throws IOException {
      JsonToken token = parser.currentToken();
      if (token == JsonToken.VALUE_NUMBER_INT) {
        try {
          return checked(parser.getLongValue());
        } catch (InputCoercionException e) {
          throw new MalformedRecordException("integer " + parser.getText() + " has more than " + digits + " digits");
        }
      }
      if (token == JsonToken.VALUE_NUMBER_FLOAT) {
        return checked(integral(parser.getDecimalValue()));
      }
      return fromText(parser.getText());
    }

    /** An integer of at most 18 digits (Jackson's getLongValue, exactly); a fraction or exponent is left to Jackson. */
    @Override
    public Object fromJsonNumber(byte[] buf, int from, int to) {
      int i = from;
      boolean negative = buf[i] == '-';
      if (negative) {
        i++;
      }
      if (to - i > 18) {
        return null;
      }
      long value = 0;
      for (; i < to; i++) {
        int d = buf[i] - '0';
        if (d < 0 || d > 9) {
          return null;
        }
        value = value * 10 + d;
      }
      return checked(negative ? -value : value);
    }

    /** Text of an optional '-' and 1..18 digits, as Long.parseLong reads it; any other text goes through fromText. */
    @Override
    public Object fromText(byte[] buf, int from, int to, boolean high) {
      int i = from < to && buf[from] == '-' ? from + 1 : from;
      if (i == to || to - i > 18) {
        return ValueDecoder.super.fromText(buf, from, to, high);
      }
      long value = 0;
      for (; i < to; i++) {
        int d = buf[i] - '0';
        if (d < 0 || d > 9) {
          return ValueDecoder.super.fromText(buf, from, to, high);
        }
        value = value * 10 + d;
      }
      return checked(buf[from] == '-' ? -value : value);
    }

    private long integral(BigDecimal value) {
      try {
        return value.longValueExact();
      } catch (ArithmeticException e) {
        throw new MalformedRecordException("'" + value.toPlainString() + "' is not an integer of at most " + digits + " digits");
      }
    }

    private Long checked(long value) {
      if (value > max || value < -max) {
        throw new MalformedRecordException(value + " has more than the column's " + digits + " digits");
      }
      return value;
    }
  }

  private static final class DecimalDecoder implements ValueDecoder {
    private final int precision;
    private final int scale;

    DecimalDecoder(int precision, int scale) {
      this.precision = precision;
      this.scale = scale;
    }

    @Override
    public Object fromText(String text) {
      return checked(parseDecimal(text));
    }

    @Override
    public Object fromJson(JsonParser parser) throws IOException {
      JsonToken token = parser.currentToken();
      if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
        BigDecimal plain = plainDecimal(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
        return checked(plain != null ? plain : parser.getDecimalValue());
      }
      return fromText(parser.getText());
    }

    @Override
    public Object fromJsonNumber(byte[] buf, int from, int to) {
      BigDecimal plain = plainDecimal(buf, from, to);
      return plain == null ? null : checked(plain);
    }

    /** A plain decimal's text read from its bytes (new BigDecimal of it gives the same); any other text through fromText. */
    @Override
    public Object fromText(byte[] buf, int from, int to, boolean high) {
      BigDecimal plain = plainDecimal(buf, from, to);
      return plain == null ? ValueDecoder.super.fromText(buf, from, to, high) : checked(plain);
    }

    private BigDecimal checked(BigDecimal value) {
      BigDecimal scaled;
      try {
        scaled = value.scale() == scale ? value : value.setScale(scale, RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        throw new MalformedRecordException(value.toPlainString() + " has more than the column's " + scale
            + " decimal places (declare the column with a larger scale in its schema file)");
      }
      if (scaled.precision() - scaled.scale() > precision - scale) {
        throw new MalformedRecordException(value.toPlainString() + " exceeds DECIMAL(" + precision + "," + scale + ")");
      }
      return scaled;
    }
  }

  private static final class FloatDecoder implements ValueDecoder {
    @Override
    public Object fromText(String text) {
      return (float) parseDouble(text);
    }

    @Override
    public Object fromJson(JsonParser parser) throws IOException {
      JsonToken token = parser.currentToken();
      return token.isNumeric() ? parser.getFloatValue() : fromText(parser.getText());
    }

    /** Jackson's getFloatValue is the JDK's Float.parseFloat of the number's text (FastPathsTest). */
    @Override
    public Object fromJsonNumber(byte[] buf, int from, int to) {
      return Float.parseFloat(new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
    }
  }

  private static final class DoubleDecoder implements ValueDecoder {
    @Override
    public Object fromText(String text) {
      return parseDouble(text);
    }

    @Override
    public Object fromJson(JsonParser parser) throws IOException {
      JsonToken token = parser.currentToken();
      return token.isNumeric() ? parser.getDoubleValue() : fromText(parser.getText());
    }

    /** Jackson's getDoubleValue is the JDK's Double.parseDouble of the number's text (FastPathsTest). */
    @Override
    public Object fromJsonNumber(byte[] buf, int from, int to) {
      return Double.parseDouble(new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
    }
  }

  private static final class Base64Decoder implements ValueDecoder {
    @Override
    public Object fromText(String text) {
      try {
        return Bytes.wrap(Base64.getDecoder().decode(withoutLineBreaks(text)));
      } catch (IllegalArgumentException e) {
        throw new MalformedRecordException("binary value is not Base64: " + e.getMessage());
      }
    }
  }

  /** Base64 may be wrapped in lines; any other stray character is an error, not skipped (as the MIME decoder would). */
  private static String withoutLineBreaks(String text) {
    if (text.indexOf('\n') < 0 && text.indexOf('\r') < 0 && text.indexOf(' ') < 0) {
      return text;
    }
    StringBuilder s = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\n' && c != '\r' && c != ' ') {
        s.append(c);
      }
    }
    return s.toString();
  }

  /**
   * A JSON number of at most 18 digits without an exponent ({@code -12.25}) as the BigDecimal {@code new
   * BigDecimal(text)} gives (same unscaled value and scale), without the text; null for any other number. Jackson's
   * getDecimalValue goes through its general BigDecimal parser, a tenth of the fetcher's time on a 5-column row.
   */
  static BigDecimal plainDecimal(char[] chars, int offset, int length) {
    if (length > 20) { // more than a sign, 18 digits and a point: not a plain decimal the byte reader accepts either
      return null;
    }
    byte[] ascii = new byte[length]; // Jackson's fallback path only: the fast path reads the bytes themselves
    for (int k = 0; k < length; k++) {
      char c = chars[offset + k];
      if (c > 0x7f) {
        return null;
      }
      ascii[k] = (byte) c;
    }
    return plainDecimal(ascii, 0, length);
  }

  /** The plain decimal of the ASCII bytes {@code buf[from, to)}, as {@link #plainDecimal(char[], int, int)} says. */
  static BigDecimal plainDecimal(byte[] buf, int from, int to) {
    int i = from;
    boolean negative = i < to && buf[i] == '-';
    if (negative) {
      i++;
    }
    long unscaled = 0;
    int digits = 0;
    int scale = -1;
    for (; i < to; i++) {
      byte c = buf[i];
      if (c >= '0' && c <= '9') {
        if (++digits > 18) {
          return null;
        }
        unscaled = unscaled * 10 + (c - '0');
        if (scale >= 0) {
          scale++;
        }
      } else if (c == '.' && scale < 0) {
        scale = 0;
      } else {
        return null; // an exponent, or not a number
      }
    }
    if (digits == 0 || scale == 0) {
      return null;
    }
    return BigDecimal.valueOf(negative ? -unscaled : unscaled, Math.max(scale, 0));
  }

  static BigDecimal parseDecimal(String text) {
    try {
      return new BigDecimal(text.trim());
    } catch (NumberFormatException e) {
      throw new MalformedRecordException("'" + abbreviated(text) + "' is not a number");
    }
  }

  /** Oracle's BINARY_FLOAT/DOUBLE texts for the special values as well as Java's. */
  private static double parseDouble(String text) {
    String t = text.trim();
    switch (t) {
      case "Inf", "+Inf", "Infinity", "+Infinity", "INF" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-Inf", "-Infinity", "-INF" -> {
        return Double.NEGATIVE_INFINITY;
      }
      case "Nan", "NaN", "NAN" -> {
        return Double.NaN;
      }
      default -> {
        try {
          return Double.parseDouble(t);
        } catch (NumberFormatException e) {
          throw new MalformedRecordException("'" + abbreviated(text) + "' is not a floating-point number");
        }
      }
    }
  }

  static String abbreviated(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "…";
  }
}
