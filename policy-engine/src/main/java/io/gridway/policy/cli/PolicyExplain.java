package io.gridway.policy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Operation;
import io.gridway.core.event.Row;
import io.gridway.core.event.Scn;
import io.gridway.core.schema.TableSchema;
import io.gridway.policy.Explanation;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyError;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import io.gridway.policy.PolicySchemaException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gridway policy explain FILE --table db.t --row '{json}'}: what a policy does to one row,
 * step by step: selected or not and why, each predicate's value, the transformed columns, the
 * partition, the route and the conflict strategy. The row's column types are inferred from its
 * JSON values (see {@link JsonRows}).
 *
 * <p>Exit codes: 0 when the row was explained (kept or dropped); 2 when the policy is invalid, the
 * arguments are, or the policy cannot handle the table. Not thread-safe: one run per instance.
 */
@Command(name = "explain", description = "Show what a policy does to one row.", mixinStandardHelpOptions = true)
public final class PolicyExplain implements Callable<Integer> {
  public static final int OK = 0;
  public static final int INVALID = 2;

  @Parameters(index = "0", paramLabel = "FILE", description = "The policy file.")
  private Path file;

  @Option(names = "--table", required = true, paramLabel = "DB.TABLE", description = "The source table.")
  private String table;

  @Option(names = "--row", required = true, paramLabel = "JSON", description = "The row: the after image, or the before image of a delete.")
  private String row;

  @Option(names = "--before", paramLabel = "JSON", description = "For --op update: the before image (default: the same as --row).")
  private String before;

  @Option(names = "--op", defaultValue = "insert", paramLabel = "OP", description = "insert, update or delete (default ${DEFAULT-VALUE}).")
  private String op;

  @Option(names = "--key", split = ",", paramLabel = "COLUMN", description = "Primary-key columns (default: id, when the row has it).")
  private List<String> key = new ArrayList<>();

  @Option(names = "--type", paramLabel = "COLUMN=TYPE",
      description = "A column's SQL type (INT, VARCHAR, DECIMAL(10,2) is DECIMAL...) when its JSON value does not say (null), or to override the inferred one.")
  private Map<String, String> types = new java.util.LinkedHashMap<>();

  @Option(names = "--origin", defaultValue = "", paramLabel = "ID", description = "The origin id the event carries (default: none).")
  private String origin;

  private final PolicyLoader loader;
  private PrintStream out;
  private PrintStream err;

  public PolicyExplain() {
    this(PolicyLoader.create());
  }

  public PolicyExplain(PolicyLoader loader) {
    this.loader = loader;
  }

  /** Runs the command; returns its exit code. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
    return CliRun.execute(this, args, out, err, INVALID);
  }

  @Override
  public Integer call() {
    Policy policy;
    try {
      policy = loader.load(file);
    } catch (PolicyException e) {
      e.errors().stream().map(PolicyError::toString).forEach(err::println);
      return INVALID;
    }
    ChangeEvent event;
    try {
      event = event();
    } catch (IllegalArgumentException e) {
      err.println("explain: " + e.getMessage());
      return INVALID;
    }
    Explanation explanation;
    try {
      explanation = policy.explain(event);
    } catch (PolicySchemaException e) {
      err.println(e.getMessage());
      err.println("(column types were inferred from the JSON values; declare them with --type COLUMN=TYPE)");
      return INVALID;
    }
    out.println("policy '" + policy.name() + "' version " + policy.version() + " on " + event.schema().qualifiedName() + " (" + event.op() + ")");
    explanation.steps().forEach(step -> out.println("  " + step));
    if (!explanation.kept()) {
      out.println("result: DROPPED");
      return OK;
    }
    ChangeEvent result = explanation.result();
    out.println("result: KEPT in partition " + result.partition());
    if (result.before() != null && event.op() == Operation.UPDATE) {
      out.println("  before: " + JsonRows.json(result.schema(), result.before()));
    }
    Row image = result.after() != null ? result.after() : result.before();
    out.println("  " + (result.after() != null ? "after" : "before") + ": " + JsonRows.json(result.schema(), image));
    return OK;
  }

  private ChangeEvent event() {
    int dot = table.indexOf('.');
    if (dot <= 0 || dot == table.length() - 1) {
      throw new IllegalArgumentException("--table must be database.table, not '" + table + "'");
    }
    Operation operation = switch (op.toLowerCase(java.util.Locale.ROOT)) {
      case "insert" -> Operation.INSERT;
      case "update" -> Operation.UPDATE;
      case "delete" -> Operation.DELETE;
      default -> throw new IllegalArgumentException("--op must be insert, update or delete, not '" + op + "'");
    };
    Map<String, JsonNode> values = JsonRows.object(row, "--row");
    Map<String, JsonNode> beforeValues = before == null ? null : JsonRows.object(before, "--before");
    List<String> keyColumns = key.isEmpty() && values.containsKey("id") ? List.of("id") : key;
    TableSchema schema = JsonRows.schema(table.substring(0, dot), table.substring(dot + 1), values, beforeValues, keyColumns, types);
    Row image = JsonRows.row(schema, values);
    Row beforeImage = beforeValues == null ? image : JsonRows.row(schema, beforeValues);
    long now = System.currentTimeMillis() * 1000;
    return switch (operation) {
      case INSERT -> new ChangeEvent(schema, operation, null, image, null, Scn.ZERO, now, 0, origin);
      case UPDATE -> new ChangeEvent(schema, operation, beforeImage, image, null, Scn.ZERO, now, 0, origin);
      default -> new ChangeEvent(schema, operation, image, null, null, Scn.ZERO, now, 0, origin);
    };
  }
}
