package io.gridway.fetcher.mysql;

import java.util.HashMap;
import java.util.Map;

/**
 * Collation ids (as table-map metadata carries them) to character-set names (as information_schema
 * names them). The fetcher loads the server's own table at connect time ({@code
 * information_schema.COLLATIONS}); {@link #builtIn()} covers the common ids for when that is impossible.
 * Immutable and thread-safe.
 */
final class Collations {
  private static final Collations BUILT_IN = new Collations(builtInTable());

  private final Map<Integer, String> charsetById;

  Collations(Map<Integer, String> charsetById) {
    this.charsetById = Map.copyOf(charsetById);
  }

  static Collations builtIn() {
    return BUILT_IN;
  }

  /** The built-in ids overlaid with the server's. */
  static Collations withServerTable(Map<Integer, String> fromServer) {
    Map<Integer, String> merged = new HashMap<>(builtInTable());
    merged.putAll(fromServer);
    return new Collations(merged);
  }

  /** The character set of a collation id, or null when the id is unknown. */
  String charsetOf(int collationId) {
    return charsetById.get(collationId);
  }

  private static Map<Integer, String> builtInTable() {
    Map<Integer, String> t = new HashMap<>();
    for (int id : new int[] {5, 8, 15, 31, 47, 48, 49, 94}) {
      t.put(id, "latin1");
    }
    t.put(11, "ascii");
    t.put(65, "ascii");
    t.put(63, "binary");
    t.put(33, "utf8mb3");
    t.put(83, "utf8mb3");
    for (int id = 192; id <= 215; id++) {
      t.put(id, "utf8mb3");
    }
    t.put(45, "utf8mb4");
    t.put(46, "utf8mb4");
    for (int id = 224; id <= 247; id++) {
      t.put(id, "utf8mb4");
    }
    for (int id = 255; id <= 323; id++) {
      t.put(id, "utf8mb4"); // MySQL 8's utf8mb4_0900_* family
    }
    t.put(35, "ucs2");
    t.put(54, "utf16");
    t.put(56, "utf16le");
    t.put(60, "utf32");
    t.put(28, "gbk");
    t.put(24, "gb2312");
    t.put(1, "big5");
    t.put(13, "sjis");
    t.put(95, "cp932");
    t.put(12, "ujis");
    t.put(19, "euckr");
    t.put(248, "gb18030");
    t.put(26, "cp1250");
    t.put(51, "cp1251");
    t.put(57, "cp1256");
    t.put(59, "cp1257");
    t.put(9, "latin2");
    t.put(30, "latin5");
    t.put(41, "latin7");
    t.put(25, "greek");
    t.put(16, "hebrew");
    t.put(7, "koi8r");
    t.put(22, "koi8u");
    return t;
  }
}
