package io.gridway.fetcher.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises the statements of a binlog that change tables — CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE and
 * CREATE/DROP INDEX — and names the tables they touch; everything else (CREATE DATABASE, GRANT, views,
 * routines…) changes no captured table. Also recognises DML written as a statement, which means the binlog
 * is not row-based for that session. Runs per statement event only, never per row; the patterns are
 * compiled once. Stateless and thread-safe.
 */
final class DdlParser {
  private static final String NAME = "(?:`(?:[^`]|``)+`|[\\w$\\u0080-\\uFFFF]+)";
  private static final String QUALIFIED = NAME + "(?:\\s*\\.\\s*" + NAME + ")?";
  private static final Pattern LEADING_NOISE = Pattern.compile("^(?:\\s+|/\\*(?!!)[\\s\\S]*?\\*/|#[^\\n]*\\n|--\\s[^\\n]*\\n)+");
  private static final Pattern CREATE_TABLE = Pattern.compile(
      "^CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMPORARY\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(" + QUALIFIED + ")",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern ALTER_TABLE = Pattern.compile(
      "^ALTER\\s+(?:ONLINE\\s+)?(?:IGNORE\\s+)?TABLE\\s+(?:IF\\s+EXISTS\\s+)?(" + QUALIFIED + ")", Pattern.CASE_INSENSITIVE);
  private static final Pattern ALTER_RENAME = Pattern.compile(
      "\\bRENAME\\s+(?:TO\\s+|AS\\s+)?(?!COLUMN\\b|INDEX\\b|KEY\\b|CONSTRAINT\\b)(" + QUALIFIED + ")", Pattern.CASE_INSENSITIVE);
  private static final Pattern DROP_TABLE = Pattern.compile(
      "^DROP\\s+(?:TEMPORARY\\s+)?TABLES?\\s+(?:IF\\s+EXISTS\\s+)?(?:/\\*.*?\\*/\\s*)?(.+)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern RENAME_TABLE = Pattern.compile("^RENAME\\s+TABLES?\\s+(.+)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern TRUNCATE = Pattern.compile("^TRUNCATE\\s+(?:TABLE\\s+)?(" + QUALIFIED + ")", Pattern.CASE_INSENSITIVE);
  private static final Pattern INDEX = Pattern.compile(
      "^(?:CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:ONLINE\\s+|OFFLINE\\s+)?(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX|DROP\\s+INDEX)\\s+"
          + "(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?" + NAME + "\\s+ON\\s+(" + QUALIFIED + ")", Pattern.CASE_INSENSITIVE);
  private static final Pattern NAME_TOKEN = Pattern.compile(QUALIFIED);
  private static final Pattern DML = Pattern.compile(
      "^(?:INSERT|UPDATE|DELETE|REPLACE|LOAD\\s+DATA)\\b", Pattern.CASE_INSENSITIVE);

  private DdlParser() {}

  /** The statement without leading comments and whitespace (MariaDB appends, and tools prepend, comments). */
  static String strip(String sql) {
    Matcher noise = LEADING_NOISE.matcher(sql);
    return noise.lookingAt() ? sql.substring(noise.end()) : sql;
  }

  /** Whether the statement is row data written as SQL (a statement-based binlog). */
  static boolean isDml(String sql) {
    return DML.matcher(strip(sql)).lookingAt();
  }

  static DdlStatement parse(String sql, String defaultDatabase) {
    String s = strip(sql);
    Matcher m;
    if ((m = TRUNCATE.matcher(s)).lookingAt()) {
      return new DdlStatement(one(name(m.group(1), defaultDatabase)), List.of(), true);
    }
    if ((m = CREATE_TABLE.matcher(s)).lookingAt()) {
      return s.toUpperCase(Locale.ROOT).startsWith("CREATE TEMPORARY") ? DdlStatement.NONE
          : new DdlStatement(one(name(m.group(1), defaultDatabase)), List.of(), false);
    }
    if ((m = ALTER_TABLE.matcher(s)).lookingAt()) {
      String[] table = name(m.group(1), defaultDatabase);
      Matcher rename = ALTER_RENAME.matcher(s);
      if (rename.find(m.end())) {
        return new DdlStatement(one(name(rename.group(1), defaultDatabase)), one(table), false);
      }
      return new DdlStatement(one(table), List.of(), false);
    }
    if ((m = INDEX.matcher(s)).lookingAt()) {
      return new DdlStatement(one(name(m.group(1), defaultDatabase)), List.of(), false);
    }
    if ((m = DROP_TABLE.matcher(s)).lookingAt()) {
      if (s.toUpperCase(Locale.ROOT).startsWith("DROP TEMPORARY")) {
        return DdlStatement.NONE;
      }
      return new DdlStatement(List.of(), names(stripTrailing(m.group(1)), defaultDatabase), false);
    }
    if ((m = RENAME_TABLE.matcher(s)).lookingAt()) {
      List<String[]> names = names(m.group(1).replaceAll("(?i)\\s+TO\\s+", ","), defaultDatabase);
      List<String[]> from = new ArrayList<>();
      List<String[]> to = new ArrayList<>();
      for (int i = 0; i + 1 < names.size(); i += 2) {
        from.add(names.get(i));
        to.add(names.get(i + 1));
      }
      return new DdlStatement(to, from, false);
    }
    return DdlStatement.NONE;
  }

  private static List<String[]> one(String[] table) {
    List<String[]> list = new ArrayList<>(1);
    list.add(table);
    return list;
  }

  private static String stripTrailing(String list) {
    String s = list.replaceAll("/\\*.*?\\*/", " ").trim();
    return s.replaceAll("(?i)\\s+(RESTRICT|CASCADE)\\s*$", "");
  }

  private static List<String[]> names(String list, String defaultDatabase) {
    List<String[]> names = new ArrayList<>();
    Matcher m = NAME_TOKEN.matcher(list);
    while (m.find()) {
      String token = m.group();
      if (token.isBlank()) {
        continue;
      }
      names.add(name(token, defaultDatabase));
    }
    return names;
  }

  /** {@code db.t}, {@code `db`.`t`} or {@code t} (in the statement's default database) → {db, t}. */
  static String[] name(String qualified, String defaultDatabase) {
    List<String> parts = new ArrayList<>(2);
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < qualified.length(); i++) {
      char c = qualified.charAt(i);
      if (c == '`') {
        if (quoted && i + 1 < qualified.length() && qualified.charAt(i + 1) == '`') {
          current.append('`');
          i++;
        } else {
          quoted = !quoted;
        }
      } else if (c == '.' && !quoted) {
        parts.add(current.toString().trim());
        current.setLength(0);
      } else if (quoted || !Character.isWhitespace(c)) {
        current.append(c);
      }
    }
    parts.add(current.toString().trim());
    return parts.size() == 1 ? new String[] {defaultDatabase == null ? "" : defaultDatabase, parts.get(0)}
        : new String[] {parts.get(0), parts.get(1)};
  }
}
