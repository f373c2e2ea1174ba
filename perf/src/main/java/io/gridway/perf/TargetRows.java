package io.gridway.perf;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The load's rows as the target bulk loads read them: one file per table, read out of the source once (untimed) in
 * PostgreSQL's {@code COPY} text format — fields separated by a tab, rows by a newline, {@code \N} for NULL, backslash
 * escapes for backslash, tab, newline and carriage return — which is also MariaDB's {@code LOAD DATA} default format
 * and, inside single quotes, a MariaDB string literal. Holding the rows in a file keeps the source's reading out of the
 * limits' timing: a limit times the target's ingestion only. At the default scale the files take ~1.6 GB of the temporary
 * directory; {@link #close()} deletes them. Not thread-safe.
 */
final class TargetRows implements AutoCloseable {
  /** The columns of every load table, in the files' order. */
  static final List<String> COLUMNS = List.of("id", "n1", "n2", "n3", "amount", "sent_us", "s1", "s2", "s3", "body");

  /** Columns 0..NUMERIC-1 are numbers (written bare in SQL), the rest text. */
  static final int NUMERIC = 6;

  private final Path dir;
  private final List<Path> files;
  private final long bytes;

  private TargetRows(Path dir, List<Path> files, long bytes) {
    this.dir = dir;
    this.files = files;
    this.bytes = bytes;
  }

  /** Reads every table of the load out of the source, in key order, into a new temporary directory. */
  static TargetRows export(SourceDb db, Workload workload) throws SQLException, IOException {
    Path dir = Files.createTempDirectory("gridway-perf-rows-");
    List<Path> files = new ArrayList<>();
    long bytes = 0;
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.setFetchSize(4096); // Connector/J streams the result instead of holding a table in memory
      for (int t = 0; t < workload.tables(); t++) {
        Path file = dir.resolve(Workload.tableName(t) + ".tsv");
        try (ResultSet rs = s.executeQuery("SELECT " + String.join(", ", COLUMNS) + " FROM " + Workload.tableName(t)
            + " ORDER BY id"); Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 20)) {
          while (rs.next()) {
            for (int col = 1; col <= COLUMNS.size(); col++) {
              if (col > 1) {
                out.write('\t');
              }
              field(out, rs.getString(col));
            }
            out.write('\n');
          }
        }
        files.add(file);
        bytes += Files.size(file);
      }
    } catch (SQLException | IOException | RuntimeException e) {
      delete(dir);
      throw e;
    }
    return new TargetRows(dir, files, bytes);
  }

  private static void field(Writer out, String value) throws IOException {
    if (value == null) {
      out.write("\\N");
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      switch (ch) {
        case '\\' -> out.write("\\\\");
        case '\t' -> out.write("\\t");
        case '\n' -> out.write("\\n");
        case '\r' -> out.write("\\r");
        default -> out.write(ch);
      }
    }
  }

  /** The file of table {@code t} (0-based). */
  Path file(int table) {
    return files.get(table);
  }

  int tables() {
    return files.size();
  }

  /** The files' total size. */
  long bytes() {
    return bytes;
  }

  @Override
  public void close() throws IOException {
    delete(dir);
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
