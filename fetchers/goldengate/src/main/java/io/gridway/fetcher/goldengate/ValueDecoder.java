package io.gridway.fetcher.goldengate;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Turns one column value as GoldenGate wrote it into the column's canonical Java value (see {@code
 * io.gridway.core.schema.Column#javaType}). One instance per column, chosen once when the table's schema file
 * is read, so a value costs no type dispatch beyond a virtual call. Stateless and thread-safe.
 */
interface ValueDecoder {

  /** A value written as text: XML element content, or a JSON string. Never null. */
  Object fromText(String text);

  /** A value at the parser's current (non-null) JSON token; numbers may arrive as JSON numbers. */
  default Object fromJson(JsonParser parser) throws IOException {
    return fromText(parser.getText());
  }

  /**
   * A JSON number, given as its bytes {@code buf[from, to)} (already checked against JSON's number grammar), as
   * {@link #fromJson} would make it of the same token; or null when this decoder leaves the number to {@link
   * #fromJson} (JsonOpFastPath then hands the record to Jackson). The default leaves every number.
   */
  default Object fromJsonNumber(byte[] buf, int from, int to) {
    return null;
  }

  /**
   * A value written as text, given as its bytes {@code buf[from, to)} (well-formed UTF-8; {@code high} when some are
   * above 0x7F), exactly as {@link #fromText} makes it of the same text. The default makes the String; decoders of the
   * usual number forms read the bytes instead.
   */
  default Object fromText(byte[] buf, int from, int to, boolean high) {
    return fromText(new String(buf, from, to - from, high ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1));
  }
}
