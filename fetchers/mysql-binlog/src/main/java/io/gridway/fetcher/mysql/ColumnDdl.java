package io.gridway.fetcher.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads what a table map does not carry from the column definitions of {@code CREATE TABLE} (also {@code SHOW CREATE
 * TABLE}'s output) and {@code ALTER TABLE}: each column's declared type word ({@code uuid}, {@code inet6}, {@code json},
 * …), whether it is a JSON column (the {@code JSON} keyword, or MariaDB's {@code CHECK (json_valid(col))}), NOT NULL,
 * and its constant DEFAULT. A small reader of {@link SqlToken}s, not a SQL grammar: what it does not recognise changes nothing. Runs per
 * DDL statement only, never per row. Stateless and thread-safe.
 */
final class ColumnDdl {
  /** One column as its last definition declared it. */
  record Declaration(String typeWord, boolean json, boolean notNull, boolean expressionDefault, String defaultValue) {
    Declaration withJson() {
      return new Declaration(typeWord, true, notNull, expressionDefault, defaultValue);
    }

    Declaration withDefault(boolean expression, String value) {
      return new Declaration(typeWord, json, notNull, expression, value);
    }
  }

  /** How an ALTER changes a table's declarations; columns are keyed by lower-case name (MariaDB ignores case). */
  interface Edits {
    void put(String column, Declaration d);

    void remove(String column);

    void rename(String from, String to);

    void markJson(String column);

    void setDefault(String column, boolean expression, String value);
  }

  private static final List<String> NOT_A_COLUMN = List.of("PRIMARY", "KEY", "INDEX", "UNIQUE", "FULLTEXT", "SPATIAL",
      "FOREIGN", "PERIOD", "CONSTRAINT", "CHECK", "SYSTEM", "PARTITION");

  private ColumnDdl() {}

  /**
   * The columns of a {@code CREATE TABLE name (…)}, keyed by lower-case name, or null when the statement has no column
   * list ({@code CREATE TABLE … LIKE} or {@code … AS SELECT}: see {@link #likeSource}).
   */
  static Map<String, Declaration> createTable(String sql) {
    List<SqlToken> t = SqlToken.lex(sql);
    int open = firstParenAfterTableName(t);
    if (open < 0 || open + 1 < t.size() && t.get(open + 1).isWord("LIKE")) {
      return null;
    }
    Map<String, Declaration> columns = new LinkedHashMap<>();
    for (List<SqlToken> element : split(t, open + 1)) {
      element(element, new MapEdits(columns));
    }
    return columns;
  }

  /** The source table of {@code CREATE TABLE a LIKE b} or {@code CREATE TABLE a (LIKE b)}, unparsed; else null. */
  static String likeSource(String sql) {
    List<SqlToken> t = SqlToken.lex(sql);
    for (int i = 0; i + 1 < t.size(); i++) {
      if (t.get(i).isWord("LIKE")) {
        StringBuilder name = new StringBuilder(t.get(i + 1).raw());
        if (i + 3 < t.size() && t.get(i + 2).isPunct('.')) {
          name.append('.').append(t.get(i + 3).raw());
        }
        return name.toString();
      }
      if (t.get(i).isPunct('(') && !(i + 1 < t.size() && t.get(i + 1).isWord("LIKE"))) {
        return null;
      }
    }
    return null;
  }

  /** Applies the column edits of an {@code ALTER TABLE name spec, spec, …}. */
  static void alterTable(String sql, Edits edits) {
    List<SqlToken> t = SqlToken.lex(sql);
    int at = afterTableName(t);
    if (at < 0) {
      return;
    }
    for (List<SqlToken> spec : splitTopLevel(t, at, t.size())) {
      alterSpec(spec, edits);
    }
  }

  private static void alterSpec(List<SqlToken> s, Edits edits) {
    if (s.isEmpty() || s.get(0).kind() != SqlToken.Kind.WORD) {
      return;
    }
    String verb = s.get(0).upper();
    int i = 1;
    switch (verb) {
      case "ADD" -> {
        i = skipWords(s, i, "COLUMN");
        i = skipIf(s, i, "IF", "NOT", "EXISTS");
        if (i < s.size() && s.get(i).isPunct('(')) {
          for (List<SqlToken> element : split(s, i + 1)) {
            element(element, edits);
          }
        } else {
          element(s.subList(i, s.size()), edits);
        }
      }
      case "MODIFY" -> {
        i = skipWords(s, i, "COLUMN");
        i = skipIf(s, i, "IF", "EXISTS");
        element(s.subList(i, s.size()), edits);
      }
      case "CHANGE" -> {
        i = skipWords(s, i, "COLUMN");
        i = skipIf(s, i, "IF", "EXISTS");
        if (i + 1 < s.size()) {
          edits.remove(s.get(i).name());
          element(s.subList(i + 1, s.size()), edits);
        }
      }
      case "DROP" -> {
        if (i < s.size() && s.get(i).kind() == SqlToken.Kind.WORD && NOT_A_COLUMN.contains(s.get(i).upper())) {
          return;
        }
        i = skipWords(s, i, "COLUMN");
        i = skipIf(s, i, "IF", "EXISTS");
        if (i < s.size()) {
          edits.remove(s.get(i).name());
        }
      }
      case "RENAME" -> {
        if (i + 3 < s.size() && s.get(i).isWord("COLUMN") && s.get(i + 2).isWord("TO")) {
          edits.rename(s.get(i + 1).name(), s.get(i + 3).name());
        }
      }
      case "ALTER" -> {
        i = skipWords(s, i, "COLUMN");
        if (i + 2 < s.size() && s.get(i + 1).isWord("SET") && s.get(i + 2).isWord("DEFAULT")) {
          Default d = defaultAt(s, i + 3);
          edits.setDefault(s.get(i).name(), d.expression(), d.value());
        } else if (i + 2 < s.size() && s.get(i + 1).isWord("DROP") && s.get(i + 2).isWord("DEFAULT")) {
          edits.setDefault(s.get(i).name(), false, null);
        }
      }
      default -> {}
    }
  }

  /** A column definition, or a table constraint (only a {@code CHECK (json_valid(col))} means something here). */
  private static void element(List<SqlToken> e, Edits edits) {
    if (e.isEmpty()) {
      return;
    }
    SqlToken first = e.get(0);
    if (first.kind() == SqlToken.Kind.WORD && NOT_A_COLUMN.contains(first.upper())) {
      for (int i = 0; i + 2 < e.size(); i++) {
        if (e.get(i).isWord("JSON_VALID") && e.get(i + 1).isPunct('(')) {
          edits.markJson(e.get(i + 2).name());
        }
      }
      return;
    }
    if (e.size() < 2 || first.kind() == SqlToken.Kind.PUNCT) {
      return;
    }
    String name = first.name();
    String typeWord = e.get(1).raw().toLowerCase(Locale.ROOT);
    boolean json = typeWord.equals("json");
    boolean notNull = false;
    Default d = Default.NONE;
    int depth = 0;
    for (int i = 2; i < e.size(); i++) {
      SqlToken t = e.get(i);
      if (t.isPunct('(')) {
        depth++;
      } else if (t.isPunct(')')) {
        depth--;
      } else if (t.isWord("JSON_VALID") && i + 2 < e.size() && e.get(i + 1).isPunct('(') && e.get(i + 2).name().equalsIgnoreCase(name)) {
        json = true;
      } else if (depth == 0 && (t.isWord("NOT") && i + 1 < e.size() && e.get(i + 1).isWord("NULL") || t.isWord("PRIMARY"))) {
        notNull = true;
      } else if (depth == 0 && t.isWord("DEFAULT")) {
        d = defaultAt(e, i + 1);
      } else if (depth == 0 && (t.isWord("AUTO_INCREMENT") || t.isWord("AS") || t.isWord("GENERATED"))) {
        d = Default.EXPRESSION; // existing rows get numbers or computed values, not one constant
      }
    }
    edits.put(name, new Declaration(typeWord, json, notNull, d.expression(), d.value()));
  }

  private record Default(boolean expression, String value) {
    static final Default NONE = new Default(false, null);
    static final Default EXPRESSION = new Default(true, null);
  }

  /** The constant after DEFAULT: a string's content, a number, TRUE/FALSE, b'…'; NULL and expressions are no constant. */
  private static Default defaultAt(List<SqlToken> e, int i) {
    if (i >= e.size()) {
      return Default.NONE;
    }
    SqlToken t = e.get(i);
    if (t.kind() == SqlToken.Kind.STRING) {
      return new Default(false, t.text());
    }
    if (t.kind() == SqlToken.Kind.NUMBER) {
      return new Default(false, t.text());
    }
    if ((t.isPunct('-') || t.isPunct('+')) && i + 1 < e.size() && e.get(i + 1).kind() == SqlToken.Kind.NUMBER) {
      return new Default(false, (t.isPunct('-') ? "-" : "") + e.get(i + 1).text());
    }
    if (t.isWord("NULL")) {
      return Default.NONE;
    }
    if (t.isWord("TRUE") || t.isWord("FALSE")) {
      return new Default(false, t.isWord("TRUE") ? "1" : "0");
    }
    if ((t.isWord("b") || t.isWord("B")) && i + 1 < e.size() && e.get(i + 1).kind() == SqlToken.Kind.STRING
        && e.get(i + 1).text().matches("[01]{1,64}")) {
      return new Default(false, Long.toUnsignedString(Long.parseUnsignedLong(e.get(i + 1).text(), 2)));
    }
    return Default.EXPRESSION;
  }

  private static int skipWords(List<SqlToken> s, int i, String word) {
    return i < s.size() && s.get(i).isWord(word) ? i + 1 : i;
  }

  private static int skipIf(List<SqlToken> s, int i, String... words) {
    for (int k = 0; k < words.length; k++) {
      if (i + k >= s.size() || !s.get(i + k).isWord(words[k])) {
        return i;
      }
    }
    return i + words.length;
  }

  /** After {@code CREATE … TABLE [IF NOT EXISTS] name} / {@code ALTER … TABLE [IF EXISTS] name}: the next index. */
  private static int afterTableName(List<SqlToken> t) {
    int i = 0;
    while (i < t.size() && !t.get(i).isWord("TABLE")) {
      i++;
    }
    i = skipIf(t, i + 1, "IF", "NOT", "EXISTS");
    i = skipIf(t, i, "IF", "EXISTS");
    if (i >= t.size()) {
      return -1;
    }
    i++;
    if (i + 1 < t.size() && t.get(i).isPunct('.')) {
      i += 2;
    }
    return i;
  }

  private static int firstParenAfterTableName(List<SqlToken> t) {
    int i = afterTableName(t);
    return i >= 0 && i < t.size() && t.get(i).isPunct('(') ? i : -1;
  }

  /** The comma-separated elements from {@code from} up to the parenthesis that closes the one before it. */
  private static List<List<SqlToken>> split(List<SqlToken> t, int from) {
    int depth = 0;
    int end = from;
    for (; end < t.size(); end++) {
      if (t.get(end).isPunct('(')) {
        depth++;
      } else if (t.get(end).isPunct(')')) {
        if (depth == 0) {
          break;
        }
        depth--;
      }
    }
    return splitTopLevel(t, from, end);
  }

  private static List<List<SqlToken>> splitTopLevel(List<SqlToken> t, int from, int to) {
    List<List<SqlToken>> parts = new ArrayList<>();
    int depth = 0;
    int start = from;
    for (int i = from; i < to; i++) {
      SqlToken k = t.get(i);
      if (k.isPunct('(')) {
        depth++;
      } else if (k.isPunct(')')) {
        depth--;
      } else if (depth == 0 && k.isPunct(',')) {
        parts.add(t.subList(start, i));
        start = i + 1;
      }
    }
    if (start < to) {
      parts.add(t.subList(start, to));
    }
    return parts;
  }

  /** Edits straight into a column map (CREATE TABLE). */
  static final class MapEdits implements Edits {
    private final Map<String, Declaration> columns;

    MapEdits(Map<String, Declaration> columns) {
      this.columns = columns;
    }

    @Override
    public void put(String column, Declaration d) {
      String key = key(column);
      Declaration old = columns.get(key);
      // a table-level CHECK (json_valid(c)) may come before or after the column
      columns.put(key, old != null && old.json() && old.typeWord() == null ? d.withJson() : d);
    }

    @Override
    public void remove(String column) {
      columns.remove(key(column));
    }

    @Override
    public void rename(String from, String to) {
      Declaration d = columns.remove(key(from));
      if (d != null) {
        columns.put(key(to), d);
      }
    }

    @Override
    public void markJson(String column) {
      Declaration d = columns.get(key(column));
      columns.put(key(column), d == null ? new Declaration(null, true, false, false, null) : d.withJson());
    }

    @Override
    public void setDefault(String column, boolean expression, String value) {
      Declaration d = columns.get(key(column));
      if (d != null) {
        columns.put(key(column), d.withDefault(expression, value));
      }
    }

    static String key(String column) {
      return column.toLowerCase(Locale.ROOT);
    }
  }
}
