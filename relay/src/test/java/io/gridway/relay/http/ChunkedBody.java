package io.gridway.relay.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The body of a chunked HTTP/1.1 response read from a raw socket (status line and headers skipped). */
final class ChunkedBody extends InputStream {
  private final InputStream in;
  private int left;
  private boolean ended;

  ChunkedBody(InputStream in) throws IOException {
    this.in = in;
    String line;
    do {
      line = line();
    } while (!line.isEmpty());
  }

  private String line() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new EOFException();
      }
      if (c != '\r') {
        bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (ended) {
      return -1;
    }
    if (left == 0) {
      String size = line();
      if (size.isEmpty()) {
        size = line(); // the CRLF after the previous chunk
      }
      left = Integer.parseInt(size.split(";")[0].trim(), 16);
      if (left == 0) {
        ended = true;
        return -1;
      }
    }
    int n = in.read(b, off, Math.min(len, left));
    if (n < 0) {
      throw new EOFException();
    }
    left -= n;
    return n;
  }
}
