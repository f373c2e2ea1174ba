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
 * same tokenizer (Jackson's streaming parser, the JDK's StAX), touching every token, but builds no values, rows,
 * events or windows. A benchmark reports the fetcher's rate as a fraction of this one, so that results compare
 * across machines. Reads files that are complete (it does not tail).
 *
 * <p>Not thread-safe; one reader per thread.
 */
public final class TrailLimitReader {
  private final GoldenGateConfig config;
  private final TrailFiles files;
  private final JsonFactory json = new JsonFactory();
  private final XMLInputFactory xml;

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

  private long jsonTokens(byte[] buf, int start, int end) throws IOException {
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

  private long[] xmlTokens(byte[] buf, int start, int end) throws IOException {
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
