package io.gridway.fetcher.goldengate;

/**
 * Records of the JSON operation format: one operation per line (the File Writer handler writes each
 * formatted operation followed by a line break). Blank lines are skipped; a line without its break is not
 * complete yet. Looks for the line break eight bytes a step ({@link ByteSearch}): a 1,100-byte row is a 1,400-byte
 * line.
 */
final class JsonLineScanner implements RecordScanner {
  private int start;
  private int end;

  @Override
  public boolean scan(byte[] buf, int from, int to) {
    int lineStart = from;
    int i = from;
    while (true) {
      int newline = indexOfNewline(buf, i, to);
      if (newline < 0) {
        return false;
      }
      if (isBlank(buf, lineStart, newline)) {
        lineStart = newline + 1;
        i = newline + 1;
        continue;
      }
      start = lineStart;
      end = newline + 1;
      return true;
    }
  }

  /** The first '\n' in {@code buf[from, to)}, or -1. */
  static int indexOfNewline(byte[] buf, int from, int to) {
    return ByteSearch.indexOf(buf, (byte) '\n', from, to);
  }

  private static boolean isBlank(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = buf[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  @Override
  public int start() {
    return start;
  }

  @Override
  public int end() {
    return end;
  }
}
