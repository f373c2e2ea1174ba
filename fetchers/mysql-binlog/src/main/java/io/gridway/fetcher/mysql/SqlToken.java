package io.gridway.fetcher.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A token of MariaDB's SQL: a word, a quoted identifier (its content), a string (its content, escapes resolved), a
 * number or one punctuation character; comments and whitespace are dropped. For reading DDL ({@link ColumnDdl}), never
 * row data. Immutable.
 */
record SqlToken(Kind kind, String text, String raw) {
  enum Kind { WORD, IDENTIFIER, STRING, NUMBER, PUNCT }

  boolean isWord(String word) {
    return kind == Kind.WORD && text.equalsIgnoreCase(word);
  }

  boolean isPunct(char c) {
    return kind == Kind.PUNCT && text.charAt(0) == c;
  }

  String upper() {
    return text.toUpperCase(Locale.ROOT);
  }

  /** As a column name: a quoted identifier's content, a word as written. */
  String name() {
    return text;
  }

  static List<SqlToken> lex(String sql) {
    List<SqlToken> tokens = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '#' || c == '-' && i + 2 < n && sql.charAt(i + 1) == '-' && Character.isWhitespace(sql.charAt(i + 2))) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '`') {
        StringBuilder sb = new StringBuilder();
        int j = i + 1;
        while (j < n) {
          char d = sql.charAt(j);
          if (d == '`') {
            if (j + 1 < n && sql.charAt(j + 1) == '`') {
              sb.append('`');
              j += 2;
              continue;
            }
            break;
          }
          sb.append(d);
          j++;
        }
        tokens.add(new SqlToken(Kind.IDENTIFIER, sb.toString(), sql.substring(i, Math.min(n, j + 1))));
        i = j + 1;
      } else if (c == '\'' || c == '"') {
        StringBuilder sb = new StringBuilder();
        int j = i + 1;
        while (j < n) {
          char d = sql.charAt(j);
          if (d == '\\' && j + 1 < n) {
            sb.append(unescape(sql.charAt(j + 1)));
            j += 2;
            continue;
          }
          if (d == c) {
            if (j + 1 < n && sql.charAt(j + 1) == c) {
              sb.append(c);
              j += 2;
              continue;
            }
            break;
          }
          sb.append(d);
          j++;
        }
        tokens.add(new SqlToken(Kind.STRING, sb.toString(), sql.substring(i, Math.min(n, j + 1))));
        i = j + 1;
      } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '.'
            || (sql.charAt(j) == '-' || sql.charAt(j) == '+') && (sql.charAt(j - 1) == 'e' || sql.charAt(j - 1) == 'E'))) {
          j++;
        }
        tokens.add(new SqlToken(Kind.NUMBER, sql.substring(i, j), sql.substring(i, j)));
        i = j;
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$' || c >= 0x80) {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$'
            || sql.charAt(j) >= 0x80)) {
          j++;
        }
        tokens.add(new SqlToken(Kind.WORD, sql.substring(i, j), sql.substring(i, j)));
        i = j;
      } else {
        tokens.add(new SqlToken(Kind.PUNCT, String.valueOf(c), String.valueOf(c)));
        i++;
      }
    }
    return tokens;
  }

  private static char unescape(char c) {
    return switch (c) {
      case 'n' -> '\n';
      case 't' -> '\t';
      case 'r' -> '\r';
      case '0' -> '\0';
      case 'b' -> '\b';
      case 'Z' -> '\u001A';
      default -> c;
    };
  }
}
