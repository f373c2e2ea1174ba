package io.gridway.perf;

import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.PrivatePostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The bulk-load limit of a real target (issue 24 item 2): the load's rows ({@link TargetRows}, read out of the source
 * once, untimed) written into the e2e run's own private target server with its fastest plain bulk path, no grid — one
 * untimed pass, the tables emptied, then the timed one, as {@link Limits#binlog} does. One connection, tables one after
 * another, as the JDBC applier writes. {@code limit-postgres}: {@code COPY … FROM STDIN} through pgjdbc's
 * {@code CopyManager} in 1 MiB messages; {@code limit-mariadb}: {@code LOAD DATA LOCAL INFILE} of the same file, or
 * with {@code -Dgridway.perf.mariadbLimit=insert} multi-row {@code INSERT}s of about 1 MiB each (README: both were
 * measured; LOAD DATA is kept, being faster). Timed from the first byte sent to the last table's end; the rate is rows/s
 * ({@code events} = the load's records). CPU = the harness's plus the target server's processes'. The tables are
 * emptied afterwards. The rows are read out of the source on the first {@link #measure} and kept for the next targets and
 * repetitions until {@link #close()}. Single-threaded.
 */
final class TargetLimit implements AutoCloseable {
  static final String NOTE = "Target limits: limit-postgres is COPY … FROM STDIN of the load's rows (read out of the source"
      + " once beforehand, untimed, into PostgreSQL's text format) through pgjdbc's CopyManager in 1 MiB messages; limit-mariadb"
      + " is LOAD DATA LOCAL INFILE of the same files; both on one connection, the tables one after another, into the same"
      + " private server the e2e run writes to, one untimed pass first, timed from the first byte to the last table loaded."
      + " Their rate is rows/s (= the load's events without --updates); CPU counts the harness and the target server. Each e2e"
      + " run into a target carries targetLimitRatio = its rate / that target's limit in the same run (targetLimit names it).";

  /** Rows of one multi-row INSERT: a statement of about 1 MiB. */
  private static final int INSERT_BYTES = 1 << 20;

  private static final int CHUNK = 1 << 20;

  private final RunContext context;
  private TargetRows rows; // read on first use

  TargetLimit(RunContext context) {
    this.context = context;
  }

  /** The JSON stage of a target's limit: {@code limit-postgres}, {@code limit-mariadb}. */
  static String stage(String kind) {
    return "limit-" + kind;
  }

  /** Whether MariaDB's limit uses multi-row INSERTs (the slower path, kept to measure it again) instead of LOAD DATA. */
  private static boolean mariadbByInsert() {
    return "insert".equals(System.getProperty("gridway.perf.mariadbLimit"));
  }

  /** The target's limit; a failure becomes an invalid run of its stage. The target is left empty. */
  RunResult measure(JdbcTarget target) throws InterruptedException {
    return Session.attempt(context, stage(target.kind()), () -> {
      if (rows == null) {
        rows = TargetRows.export(context.db(), context.workload());
      }
      return timed(target);
    }).withConsumers(0, target.kind());
  }

  @Override
  public void close() throws IOException {
    if (rows != null) {
      rows.close();
    }
  }

  private RunResult timed(JdbcTarget target) throws Exception {
    Workload w = context.workload();
    String stage = stage(target.kind());
    String config = target.server() instanceof PrivatePostgres
        ? "COPY FROM STDIN (text) via pgjdbc CopyManager, 1 MiB messages, one connection (bulk-load limit)"
        : mariadbByInsert() ? "multi-row INSERT of ~1 MiB per statement, autocommit, one connection (bulk-load limit)"
            : "LOAD DATA LOCAL INFILE per table, one connection (bulk-load limit)";
    long mark = (long) Math.ceil(context.warmup() * w.records());
    target.reset();
    pass(target, mark, null);
    target.reset();
    Pass timed = pass(target, mark, target.server().dataDir());
    String missing = target.missingRows();
    target.reset();
    if (missing != null) {
      return RunResult.invalid(stage, config, 2, 0, w, timed.rows, timed.seconds(), timed.cpuSeconds(),
          context.machine().cores(), missing).withConsumers(0, target.kind());
    }
    return RunResult.valid(stage, config, 2, 0, w, timed.rows, rows.bytes(), timed.seconds(), timed.cpuSeconds(),
        context.machine().cores()).withConsumers(0, target.kind())
        .withSteady(timed.mark == null ? null : SteadyWindow.of(List.of(timed.mark, timed.last), w.records(), context.warmup()));
  }

  /** One load of every table; with {@code dataDir} its CPU is counted (harness + server) at the start, the mark and the end. */
  private Pass pass(JdbcTarget target, long mark, Path dataDir) throws Exception {
    try (Connection c = connect(target)) {
      Pass pass = new Pass(mark, dataDir);
      for (int t = 0; t < rows.tables(); t++) {
        String table = target.qualified(t);
        if (target.server() instanceof PrivatePostgres pg && "psql".equals(System.getProperty("gridway.perf.postgresLimit"))) {
          psql(pg, target.database(), table, rows.file(t), pass, context.workload().recordsOf(t));
        } else if (target.server() instanceof PrivatePostgres) {
          copy(c, table, rows.file(t), pass);
        } else if (mariadbByInsert()) {
          insert(c, table, rows.file(t), pass);
        } else {
          loadData(c, table, rows.file(t), pass);
        }
      }
      pass.end();
      return pass;
    }
  }

  private static Connection connect(JdbcTarget target) throws SQLException {
    if (target.server() instanceof PrivateMariaDb maria) {
      String url = maria.jdbcUrl(target.database());
      // LOAD DATA LOCAL: the driver sends the file when the server asks for it (off by default)
      return DriverManager.getConnection(url + (url.contains("?") ? "&" : "?") + "allowLocalInfile=true", maria.rootUser(),
          maria.rootPassword());
    }
    return target.server().connect(target.database());
  }

  /** COPY FROM STDIN, the file's bytes in 1 MiB messages; a row count sample after each. */
  private static void copy(Connection c, String table, Path file, Pass pass) throws SQLException, IOException {
    CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " (" + String.join(", ", TargetRows.COLUMNS)
        + ") FROM STDIN (FORMAT text)");
    try (InputStream data = Files.newInputStream(file)) {
      byte[] buffer = new byte[CHUNK];
      for (int n; (n = data.readNBytes(buffer, 0, buffer.length)) > 0; ) {
        in.writeToCopy(buffer, 0, n);
        pass.add(newlines(buffer, n));
      }
      in.endCopy();
    } finally {
      if (in.isActive()) {
        in.cancelCopy();
      }
    }
  }

  /** psql's {@code \\copy} of the same file (the comparison of README "Target limits"; its CPU is not counted). */
  private static void psql(PrivatePostgres pg, String database, String table, Path file, Pass pass, long rows)
      throws Exception {
    Process p = new ProcessBuilder("psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", pg.host(), "-p", Integer.toString(pg.port()),
        "-U", pg.user(), "-d", database, "-c", "\\copy " + table + " (" + String.join(", ", TargetRows.COLUMNS) + ") FROM '"
        + file + "' (FORMAT text)").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("psql \\copy into " + table + " exited " + p.exitValue());
    }
    pass.add(rows); // the row counts are checked after the pass
  }

  private static long newlines(byte[] buffer, int n) {
    long lines = 0;
    for (int i = 0; i < n; i++) {
      if (buffer[i] == '\n') {
        lines++;
      }
    }
    return lines;
  }

  /** LOAD DATA LOCAL INFILE of the whole file: its default format is the file's. */
  private static void loadData(Connection c, String table, Path file, Pass pass) throws SQLException {
    try (Statement s = c.createStatement()) {
      long loaded = s.executeLargeUpdate("LOAD DATA LOCAL INFILE '" + file.toString().replace("'", "''") + "' INTO TABLE "
          + table + " CHARACTER SET utf8mb4 (" + String.join(", ", TargetRows.COLUMNS) + ")");
      pass.add(loaded);
    }
  }

  /**
   * Multi-row INSERTs of about 1 MiB, each its own transaction. The file's fields go into the statement as they are:
   * numbers bare, text in single quotes (the file's backslash escapes mean the same in a MariaDB string literal; only a
   * quote needs one more), {@code \N} as NULL.
   */
  private static void insert(Connection c, String table, Path file, Pass pass) throws SQLException, IOException {
    String head = "INSERT INTO " + table + " (" + String.join(", ", TargetRows.COLUMNS) + ") VALUES ";
    StringBuilder sql = new StringBuilder(INSERT_BYTES + (64 << 10));
    c.setAutoCommit(true);
    try (Statement s = c.createStatement(); BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      long batched = 0;
      for (String line; (line = in.readLine()) != null; ) {
        sql.append(batched == 0 ? head : ",").append('(');
        int col = 0;
        int from = 0;
        while (true) {
          int tab = line.indexOf('\t', from);
          String field = line.substring(from, tab < 0 ? line.length() : tab);
          if (col > 0) {
            sql.append(',');
          }
          if (field.equals("\\N")) {
            sql.append("NULL");
          } else if (col < TargetRows.NUMERIC) {
            sql.append(field);
          } else {
            sql.append('\'').append(field.replace("'", "\\'")).append('\'');
          }
          if (tab < 0) {
            break;
          }
          from = tab + 1;
          col++;
        }
        sql.append(')');
        batched++;
        if (sql.length() >= INSERT_BYTES) {
          s.executeUpdate(sql.toString());
          pass.add(batched);
          batched = 0;
          sql.setLength(0);
        }
      }
      if (batched > 0) {
        s.executeUpdate(sql.toString());
        pass.add(batched);
      }
    }
  }

  /** The progress of one pass: rows sent, and (timed pass) the samples at the warm-up mark and the end. */
  private static final class Pass {
    final long start = System.nanoTime();
    final long markRows;
    final Path dataDir; // null: the untimed pass, no CPU readings
    final double cpuStart;
    long rows;
    SteadyWindow.Sample mark;
    SteadyWindow.Sample last;

    Pass(long markRows, Path dataDir) {
      this.markRows = markRows;
      this.dataDir = dataDir;
      this.cpuStart = dataDir == null ? -1 : ProcCpu.self() + ProcCpu.server(dataDir);
    }

    void add(long n) {
      rows += n;
      if (mark == null && dataDir != null && rows >= markRows) {
        mark = new SteadyWindow.Sample(System.nanoTime(), rows, ProcCpu.self() + ProcCpu.server(dataDir));
      }
    }

    void end() {
      last = new SteadyWindow.Sample(System.nanoTime(), rows, dataDir == null ? -1 : ProcCpu.self() + ProcCpu.server(dataDir));
    }

    double seconds() {
      return (last.nanos() - start) / 1e9;
    }

    double cpuSeconds() {
      return cpuStart < 0 || last.cpuSeconds() < 0 ? -1 : last.cpuSeconds() - cpuStart;
    }
  }
}
