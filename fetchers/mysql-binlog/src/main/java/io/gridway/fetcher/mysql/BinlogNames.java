package io.gridway.fetcher.mysql;

/** Binlog file names: the numeric suffix that goes into SCNs. Stateless. */
final class BinlogNames {
  private BinlogNames() {}

  /** {@code mariadb-bin.000042} → 42. */
  static long fileIndex(String file) {
    int dot = file.lastIndexOf('.');
    if (dot < 0 || dot == file.length() - 1) {
      throw new IllegalArgumentException("binlog file name without a numeric suffix: " + file);
    }
    long index = 0;
    for (int i = dot + 1; i < file.length(); i++) {
      char c = file.charAt(i);
      if (c < '0' || c > '9' || index > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("binlog file name without a numeric suffix: " + file);
      }
      index = index * 10 + (c - '0');
    }
    if (index > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("binlog file index of " + file + " exceeds 2^32-1");
    }
    return index;
  }
}
