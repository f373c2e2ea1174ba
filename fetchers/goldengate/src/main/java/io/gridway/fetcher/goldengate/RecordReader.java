package io.gridway.fetcher.goldengate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one growing file from an offset and hands out its complete records, one at a time, as ranges of an
 * internal buffer; bytes of a record still being written stay in the buffer until the rest arrives. The
 * buffer grows up to the largest record allowed and no further, so a huge or unterminated record is an error,
 * not an exhausted heap.
 *
 * <p>A record's range is valid until the next {@link #fill}. Not thread-safe: the fetcher thread owns it.
 */
final class RecordReader implements AutoCloseable {
  private static final int INITIAL_BUFFER = 256 * 1024;

  private final Path file;
  private final FileChannel channel;
  private final RecordScanner scanner;
  private final int maxRecordBytes;
  private byte[] buf;
  private long bufferOffset; // file offset of buf[0]
  private int consumed; // buf[0, consumed) is behind us
  private int filled; // buf[consumed, filled) is read and not yet consumed
  private int recordStart;
  private int recordEnd;

  RecordReader(Path file, long offset, RecordScanner scanner, long maxRecordBytes) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.scanner = scanner;
    this.maxRecordBytes = (int) Math.min(Integer.MAX_VALUE - 16, maxRecordBytes);
    this.buf = new byte[Math.min(INITIAL_BUFFER, this.maxRecordBytes)];
    this.bufferOffset = offset;
  }

  /** Counts line breaks in the file before {@code offset}: only for error messages, so never on the hot path. */
  private long newlinesBefore(long offset) throws IOException {
    long count = 0;
    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    long at = 0;
    while (at < offset) {
      chunk.clear().limit((int) Math.min(chunk.capacity(), offset - at));
      int n = channel.read(chunk, at);
      if (n <= 0) {
        break;
      }
      for (int i = 0; i < n; i++) {
        if (chunk.get(i) == '\n') {
          count++;
        }
      }
      at += n;
    }
    return count;
  }

  /**
   * The next complete record, if the bytes read so far hold one: true, and {@link #buffer}, {@link
   * #recordStart}, {@link #recordEnd} bound it.
   */
  boolean next() {
    if (consumed >= filled) {
      return false;
    }
    boolean found;
    try {
      found = scanner.scan(buf, consumed, filled);
    } catch (MalformedRecordException e) {
      recordStart = firstNonBlank(consumed);
      throw e;
    }
    if (!found) {
      return false;
    }
    recordStart = scanner.start();
    recordEnd = scanner.end();
    consumed = recordEnd;
    return true;
  }

  private int firstNonBlank(int from) {
    int i = from;
    while (i < filled && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t')) {
      i++;
    }
    return i;
  }

  /**
   * Reads what the file has beyond the buffer. Returns the number of bytes read, 0 at the current end of the
   * file.
   *
   * @throws MalformedRecordException when an incomplete record already fills the largest buffer allowed
   */
  int fill() throws IOException {
    if (consumed > 0) {
      System.arraycopy(buf, consumed, buf, 0, filled - consumed);
      bufferOffset += consumed;
      filled -= consumed;
      consumed = 0;
    }
    if (filled == buf.length) {
      if (buf.length >= maxRecordBytes) {
        recordStart = firstNonBlank(0);
        throw new MalformedRecordException("a record longer than maxTransactionBytes (" + maxRecordBytes
            + " bytes) begins here, or its end is missing");
      }
      byte[] bigger = new byte[(int) Math.min(maxRecordBytes, (long) buf.length * 2)];
      System.arraycopy(buf, 0, bigger, 0, filled);
      buf = bigger;
    }
    int n = channel.read(ByteBuffer.wrap(buf, filled, buf.length - filled), bufferOffset + filled);
    if (n <= 0) {
      return 0;
    }
    filled += n;
    return n;
  }

  /** Points {@link #recordOffset} at the bytes still waiting for the rest of their record (for an error). */
  void pointAtRest() {
    recordStart = firstNonBlank(consumed);
  }

  /** Whether bytes other than blanks are waiting for the rest of their record. */
  boolean hasPartialRecord() {
    for (int i = consumed; i < filled; i++) {
      byte b = buf[i];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return true;
      }
    }
    return false;
  }

  /** The file offset of the first byte not yet handed out (just past the last record). */
  long offset() {
    return bufferOffset + consumed;
  }

  byte[] buffer() {
    return buf;
  }

  int recordStart() {
    return recordStart;
  }

  int recordEnd() {
    return recordEnd;
  }

  /** The file offset of the current record (or, after an error, of where the bad bytes begin). */
  long recordOffset() {
    return bufferOffset + recordStart;
  }

  /** The 1-based line the current record (or the error) begins on; reads the file up to it (for messages only). */
  long recordLine() {
    try {
      return 1 + newlinesBefore(recordOffset());
    } catch (IOException e) {
      return -1;
    }
  }

  Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
