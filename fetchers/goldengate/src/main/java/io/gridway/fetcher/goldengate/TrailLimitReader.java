package io.gridway.fetcher.goldengate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Objects;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The same-machine limit for the GoldenGate fetcher: reads the same files with the same record scanner and the
 * fastest tokenizer found for each format, touching every token (locating every string and text, checking syntax and
 * UTF-8), but builds no values, rows, events or windows. A benchmark reports the fetcher's rate as a fraction of this
 * one, so that results compare across machines. Reads files that are complete (it does not tail).
 *
 * <p>The tokenizers are the hand-written lexers the fetcher's fast paths use ({@link JsonCursor}, {@link XmlCursor}),
 * which are faster than Jackson's and StAX's; a record they leave (escapes, references, CDATA, anything unusual) is
 * tokenized by Jackson or StAX, as the fetcher then parses it. A limit built on a slower general tokenizer would make
 * the fetcher's ratio look better than it is.
 *
 * <p>Not thread-safe; one reader per thread.
 */
public final class TrailLimitReader {
  private final GoldenGateConfig config;
  private final TrailFiles files;
  private final JsonFactory json = new JsonFactory();
  private final XMLInputFactory xml;
  private final JsonCursor jsonCursor = new JsonCursor();
  private final XmlCursor xmlCursor = new XmlCursor();
  private static final int MAX_DEPTH = 32;
  private static final byte[] DBUPDATE = JsonCursor.ascii("dbupdate");
  private static final byte[] IMAGE = JsonCursor.ascii("image");
  private static final byte[] BEFORE = JsonCursor.ascii("before");
  private final int[] openFrom = new int[MAX_DEPTH]; // the XML elements open at the cursor: their names
  private final int[] openTo = new int[MAX_DEPTH];

  /** What a read saw. */
  public record Result(long records, long operations, long tokens, long bytes) {}

  public TrailLimitReader(GoldenGateConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.files = TrailFiles.of(config);
    this.xml = XmlTransactionParser.newFactory(); // configured as the fetcher's
  }

  /**
   * Reads files {@code first..last} (sequences, inclusive) from their starts to their ends.
   *
   * @throws IOException when a file cannot be read
   * @throws IllegalStateException when a file ends in an incomplete record or holds a malformed one
   */
  public Result read(long first, long last) throws IOException {
    long records = 0;
    long operations = 0;
    long tokens = 0;
    long bytes = 0;
    boolean isJson = config.trailFormat() == GoldenGateConfig.Format.JSON;
    for (long sequence = first; sequence <= last; sequence++) {
      try (RecordReader reader = new RecordReader(files.path(sequence), 0, RecordScanner.of(config.trailFormat()),
          config.maxTransactionBytes().bytes())) {
        while (true) {
          if (reader.next()) {
            records++;
            int start = reader.recordStart();
            int end = reader.recordEnd();
            bytes += end - start;
            if (isJson) {
              tokens += jsonTokens(reader.buffer(), start, end);
              operations++;
            } else {
              long[] counts = xmlTokens(reader.buffer(), start, end);
              tokens += counts[0];
              operations += counts[1];
            }
          } else if (reader.fill() == 0) {
            if (reader.hasPartialRecord()) {
              throw new IllegalStateException(files.path(sequence) + " ends in an incomplete record");
            }
            break;
          }
        }
      } catch (MalformedRecordException e) {
        throw new IllegalStateException(files.path(sequence) + ": " + e.getMessage(), e);
      }
    }
    return new Result(records, operations, tokens, bytes);
  }

  /** The tokens of a JSON record, read by the fetcher's lexer; by Jackson when the lexer leaves it. */
  private long jsonTokens(byte[] buf, int start, int end) throws IOException {
    JsonCursor in = jsonCursor;
    in.start(buf, start, end);
    try {
      in.skipSpace();
      long n = jsonValue(in, 0);
      in.skipSpace();
      if (in.pos != in.end) {
        throw JsonCursor.NOT_HANDLED;
      }
      return n;
    } catch (JsonCursor.NotHandled e) {
      return jacksonTokens(buf, start, end);
    } finally {
      in.release();
    }
  }

  /** Tokens as Jackson counts them: an object or array's start and end, each name, each scalar. */
  private static long jsonValue(JsonCursor in, int depth) {
    if (depth > MAX_DEPTH) {
      throw JsonCursor.NOT_HANDLED;
    }
    byte c = in.peek();
    switch (c) {
      case '"' -> in.readString();
      case 't' -> in.literal("true");
      case 'f' -> in.literal("false");
      case 'n' -> in.literal("null");
      case '{', '[' -> {
        byte close = c == '{' ? (byte) '}' : (byte) ']';
        long n = 2;
        in.pos++;
        in.skipSpace();
        if (in.peek() == close) {
          in.pos++;
          return n;
        }
        while (true) {
          if (close == '}') {
            in.readName();
            n++;
            in.skipSpace();
            in.expect(':');
            in.skipSpace();
          }
          n += jsonValue(in, depth + 1);
          in.skipSpace();
          byte d = in.next();
          if (d == close) {
            return n;
          }
          if (d != ',') {
            throw JsonCursor.NOT_HANDLED;
          }
          in.skipSpace();
        }
      }
      default -> in.skipNumber(); // or not a value: the lexer throws
    }
    return 1;
  }

  private long jacksonTokens(byte[] buf, int start, int end) throws IOException {
    long n = 0;
    try (JsonParser p = json.createParser(buf, start, end - start)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t.isScalarValue()) {
          p.getTextLength(); // the text is located, as the fetcher's decoders need; not copied into a String
        }
        n++;
      }
    }
    return n;
  }

  /**
   * The tokens of an XML record (start and end tags, texts) and its operations (dbupdates but before images), read by
   * the fetcher's lexer, which checks that end tags match; by StAX when the lexer leaves the record.
   */
  private long[] xmlTokens(byte[] buf, int start, int end) throws IOException {
    XmlCursor in = xmlCursor;
    in.start(buf, start, end);
    long n = 0;
    long ops = 0;
    int depth = 0;
    try {
      do {
        if (in.pos < in.end && in.b[in.pos] != '<') {
          in.text();
        } else if (in.atEndTag()) {
          if (depth == 0) {
            throw JsonCursor.NOT_HANDLED;
          }
          depth--;
          in.endTag(openFrom[depth], openTo[depth]);
        } else {
          in.startTag();
          if (in.is(in.nameFrom, in.nameTo, DBUPDATE)) {
            int image = in.attribute(IMAGE);
            if (image < 0 || !in.valueIs(image, BEFORE)) {
              ops++;
            }
          }
          if (in.selfClosing) {
            n++; // StAX reports its end too
          } else {
            if (depth == MAX_DEPTH) {
              throw JsonCursor.NOT_HANDLED;
            }
            openFrom[depth] = in.nameFrom;
            openTo[depth] = in.nameTo;
            depth++;
          }
        }
        n++;
      } while (depth > 0);
      if (in.pos != in.end) {
        throw JsonCursor.NOT_HANDLED;
      }
      return new long[] {n, ops};
    } catch (JsonCursor.NotHandled e) {
      return staxTokens(buf, start, end);
    } finally {
      in.release();
    }
  }

  private long[] staxTokens(byte[] buf, int start, int end) throws IOException {
    long n = 0;
    long ops = 0;
    try {
      XMLStreamReader r = xml.createXMLStreamReader(new ByteArrayInputStream(buf, start, end - start), "UTF-8");
      try {
        while (r.hasNext()) {
          int event = r.next();
          if (event == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("dbupdate")
              && !"before".equals(r.getAttributeValue(null, "image"))) {
            ops++;
          } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
            r.getTextLength();
          }
          n++;
        }
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      throw new MalformedRecordException("not well-formed XML: " + e.getMessage());
    }
    return new long[] {n, ops};
  }
}
