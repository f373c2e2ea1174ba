package io.gridway.applier.jdbc;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.TableTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema-change policy (JDBC.md "Schema changes"): {@code apply} brings the target table to the event's table
 * version, {@code ignore} skips, {@code stop} fails naming the SCN, table and statement. Stateless and thread-safe.
 *
 * <p>Where the DDL comes from: a MariaDB/MySQL target of a table routed to the same name replays the source's own
 * statement (the SCHEMA_CHANGE event's {@code ddl}, the binlog QUERY event's text), so every attribute the binlog's
 * table map lacks — ZEROFILL, generated-column expressions, INVISIBLE, UUID/INET/spatial type names, per-column
 * charset and collation, ENUM/SET labels as written, table options — arrives exactly, and each table version is
 * created in SCN order from the DDL stream (never from today's information_schema). Other targets get DDL generated
 * from the event's schema through the dialect's type mapping. A {@code CREATE TABLE} of a table the target already
 * has never replaces it: a compatible table is kept, an incompatible one fails naming the column and the reason.
 */
final class SchemaChangeApplier {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaChangeApplier.class);
  private static final Pattern LEADING_COMMENTS = Pattern.compile("(?s)^\\s*(/\\*.*?\\*/\\s*)*");
  private static final Pattern DROP_TABLE = Pattern.compile("(?is)^DROP\\s+(TEMPORARY\\s+)?TABLE\\b.*");
  private static final Pattern CREATE_TABLE = Pattern.compile("(?is)^CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?");
  private static final int DDL_SHOWN = 160;

  private final SqlDialect d;
  private final JdbcApplierConfig.SchemaChangePolicy policy;
  private final boolean createDatabases;

  SchemaChangeApplier(SqlDialect dialect, JdbcApplierConfig.SchemaChangePolicy policy, boolean createDatabases) {
    this.d = dialect;
    this.policy = policy;
    this.createDatabases = createDatabases;
  }

  /** Whether applying this event needs DDL that commits implicitly on this dialect. */
  boolean implicitCommit(ChangeEvent e) {
    return e.op() == Operation.SCHEMA_CHANGE && !d.transactionalDdl()
        && policy == JdbcApplierConfig.SchemaChangePolicy.APPLY;
  }

  /** Applies one SCHEMA_CHANGE on the connection; the caller has sent every earlier change. */
  void apply(Connection c, ChangeEvent e, TableTarget t) throws SQLException {
    switch (policy) {
      case IGNORE -> {
        return;
      }
      case STOP -> throw new ConflictException("schema change at SCN " + e.scn() + " on " + e.schema().qualifiedName()
          + " and the schema-change policy is stop: " + shown(e.ddl()));
      default -> { }
    }
    String statement = LEADING_COMMENTS.matcher(e.ddl()).replaceFirst("");
    String table = d.table(t.database(), t.table());
    if (DROP_TABLE.matcher(statement).matches()) {
      execute(c, d.dropTable(table));
      return;
    }
    List<String> existing = targetColumns(c, t);
    Matcher create = CREATE_TABLE.matcher(statement);
    boolean isCreate = create.lookingAt();
    if (isCreate && !existing.isEmpty()) {
      checkCompatible(e, t, existing);
      LOG.info("schema change at SCN {}: target table {} exists and is compatible with {}; kept as it is", e.scn(),
          t.qualifiedName(), e.schema().qualifiedName());
      return;
    }
    if (existing.isEmpty()) {
      ensureDatabase(c, t);
    }
    if (replays(e, t)) {
      replay(c, e, t, isCreate ? "CREATE TABLE IF NOT EXISTS " + statement.substring(create.end()) : statement);
      return;
    }
    if (existing.isEmpty()) {
      execute(c, d.createTable(table, e.schema()));
      return;
    }
    Set<String> wanted = new HashSet<>();
    for (Column col : e.schema().columns()) {
      wanted.add(col.name());
      if (!existing.contains(col.name())) {
        execute(c, d.addColumn(table, col));
      }
    }
    for (String old : existing) {
      if (!wanted.contains(old)) {
        execute(c, d.dropColumn(table, old));
      }
    }
  }

  /** The source's own statement applies on a MariaDB/MySQL target of the same database and table name. */
  private boolean replays(ChangeEvent e, TableTarget t) {
    return d instanceof MariaDbDialect && t.database().equals(e.schema().database())
        && t.table().equals(e.schema().table());
  }

  /**
   * Runs the source's statement with the table's database as the default one (the statement may name the table
   * unqualified). A statement that fails because it was applied already — a crash between MariaDB's implicit DDL
   * commit and the checkpoint's commit redelivers it — is recognised by the target table already having the event's
   * columns, and skipped.
   */
  private void replay(Connection c, ChangeEvent e, TableTarget t, String statement) throws SQLException {
    String catalog = c.getCatalog();
    c.setCatalog(t.database());
    try {
      execute(c, statement);
    } catch (SQLException failed) {
      if (sameColumns(e.schema(), targetColumns(c, t))) {
        LOG.info("schema change at SCN {} on {} was applied before (the target has its columns); skipped: {}", e.scn(),
            t.qualifiedName(), failed.getMessage());
        return;
      }
      throw new SQLException("schema change at SCN " + e.scn() + " on " + e.schema().qualifiedName() + " → "
          + t.qualifiedName() + " failed: " + failed.getMessage() + " (statement: " + shown(statement) + ")",
          failed.getSQLState(), failed.getErrorCode(), failed);
    } finally {
      c.setCatalog(catalog); // the checkpoint table is named unqualified, in the URL's database
    }
  }

  /** A table the operator made (or an earlier run) is kept when it holds every column of the source's version. */
  private static void checkCompatible(ChangeEvent e, TableTarget t, List<String> existing) {
    for (Column col : e.schema().columns()) {
      if (!existing.contains(col.name())) {
        throw new ConflictException("target table " + t.qualifiedName() + " is incompatible with " + e.schema().qualifiedName()
            + " (CREATE at SCN " + e.scn() + "): column " + col.name() + " is missing on the target;"
            + " add it, or drop the target table to have it created");
      }
    }
  }

  private static boolean sameColumns(TableSchema s, List<String> existing) {
    if (existing.size() < s.columnCount()) {
      return false;
    }
    for (Column col : s.columns()) {
      if (!existing.contains(col.name())) {
        return false;
      }
    }
    return true;
  }

  /** Creates the target database (MariaDB) or schema (PostgreSQL) when missing, unless turned off. */
  private void ensureDatabase(Connection c, TableTarget t) throws SQLException {
    if (d instanceof PhoenixDialect || databaseExists(c, t.database())) {
      return;
    }
    String what = d instanceof PostgresDialect ? "SCHEMA" : "DATABASE";
    if (!createDatabases) {
      throw new ConflictException("target " + what.toLowerCase(java.util.Locale.ROOT) + " " + t.database()
          + " does not exist and applier.jdbc.createDatabases is false: create it (CREATE " + what + " "
          + d.quote(t.database()) + ") and grant the consumer's user CREATE on it");
    }
    execute(c, "CREATE " + what + " IF NOT EXISTS " + d.quote(t.database()));
    LOG.info("created target {} {}", what.toLowerCase(java.util.Locale.ROOT), t.database());
  }

  private static boolean databaseExists(Connection c, String database) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM information_schema.schemata WHERE schema_name = ?")) {
      ps.setString(1, database);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static List<String> targetColumns(Connection c, TableTarget t) throws SQLException {
    List<String> names = new ArrayList<>();
    String sql = "SELECT column_name FROM information_schema.columns WHERE table_schema = ? AND table_name = ?"
        + " ORDER BY ordinal_position";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, t.database());
      ps.setString(2, t.table());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    return names;
  }

  /** A statement as an error shows it: its start, on one line. */
  static String shown(String ddl) {
    String one = ddl.replaceAll("\\s+", " ").strip();
    return one.length() <= DDL_SHOWN ? one : one.substring(0, DDL_SHOWN) + "… (" + one.length() + " chars)";
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
