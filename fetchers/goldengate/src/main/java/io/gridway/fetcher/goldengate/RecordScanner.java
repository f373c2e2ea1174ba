package io.gridway.fetcher.goldengate;

/**
 * Finds the next complete record in a window of bytes read from a file, without parsing it: a line for the
 * JSON operation format, a top-level element for the XML format. A record whose end has not been written yet
 * is reported as not found, never cut short. Not thread-safe: one per reader.
 */
interface RecordScanner {

  /**
   * Looks for a complete record in {@code buf[from, to)}.
   *
   * @return true when one was found: then {@link #start()} and {@link #end()} bound it (what precedes it in
   *     the window, such as blank lines or an XML prolog, is to be skipped)
   * @throws MalformedRecordException when the bytes at {@code from} cannot begin a record
   */
  boolean scan(byte[] buf, int from, int to);

  int start();

  int end();

  static RecordScanner of(GoldenGateConfig.Format format) {
    return format == GoldenGateConfig.Format.JSON ? new JsonLineScanner() : new XmlElementScanner();
  }
}
