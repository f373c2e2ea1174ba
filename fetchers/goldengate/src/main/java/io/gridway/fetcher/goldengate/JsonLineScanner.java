package io.gridway.fetcher.goldengate;

/**
 * Records of the JSON operation format: one operation per line (the File Writer handler writes each
 * formatted operation followed by a line break). Blank lines are skipped; a line without its break is not
 * complete yet.
 */
final class JsonLineScanner implements RecordScanner {
  private int start;
  private int end;

  @Override
  public boolean scan(byte[] buf, int from, int to) {
    int lineStart = from;
    for (int i = from; i < to; i++) {
      if (buf[i] == '\n') {
        if (isBlank(buf, lineStart, i)) {
          lineStart = i + 1;
          continue;
        }
        start = lineStart;
        end = i + 1;
        return true;
      }
    }
    return false;
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
