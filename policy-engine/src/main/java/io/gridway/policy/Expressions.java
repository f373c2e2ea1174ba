package io.gridway.policy;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.gridway.core.schema.TableSchema;
import java.util.List;
import java.util.Map;

/**
 * Compiles CEL expressions of {@code where} and {@code set} rules: parse, check the use of row
 * images, type-check against the table's columns, plan a program, and where possible a fast
 * evaluator ({@link FastPath}).
 *
 * <p>Options are chosen once, here: numbers compare across int, uint and double ({@code
 * after.price > 100} with a DOUBLE column), and quoted identifiers are allowed for column names
 * that are not CEL identifiers. The runtime and its programs are immutable and thread-safe, and so
 * is this class.
 */
final class Expressions {
  static final CelOptions OPTIONS =
      CelOptions.current().enableHeterogeneousNumericComparisons(true).enableQuotedIdentifierSyntax(true).build();

  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(OPTIONS).build();
  private static final CelCompiler SCHEMALESS = compiler(EventVars.schemaless());

  /** What an expression is for, which fixes the type its result must have. */
  enum Purpose {
    /** A {@code where} predicate: bool. */
    PREDICATE,
    /** A {@code set} value: any type that maps to a column type. */
    VALUE
  }

  private Expressions() {}

  /**
   * Checks an expression without a schema: syntax, use of images, and types as far as they are
   * known ({@code op}, {@code table}... but not columns, which are dynamic).
   *
   * @throws ExpressionException with the first reason it does not compile
   */
  static void checkWithoutSchema(String text, Purpose purpose) throws ExpressionException {
    checked(SCHEMALESS, text, null, purpose);
  }

  /** Compiles an expression for one table version, with its columns' types. */
  static CompiledExpression compile(String text, TableSchema schema, Purpose purpose) throws ExpressionException {
    EventVars vars = EventVars.forSchema(schema);
    CelAbstractSyntaxTree ast = checked(compiler(vars.types()), text, schema, purpose);
    try {
      CelRuntime.Program program = RUNTIME.createProgram(ast);
      return new CompiledExpression(text, ast.getResultType(), program, vars, FastPath.compile(ast, vars, schema));
    } catch (CelEvaluationException e) {
      throw new ExpressionException("cannot plan: " + e.getMessage());
    }
  }

  private static CelAbstractSyntaxTree checked(CelCompiler compiler, String text, TableSchema schema, Purpose purpose)
      throws ExpressionException {
    CelValidationResult parsed = compiler.parse(text);
    if (parsed.hasError()) {
      throw new ExpressionException("does not parse: " + describe(parsed.getErrors()));
    }
    CelAbstractSyntaxTree ast = ast(parsed);
    List<String> imageProblems = ImageRefs.check(ast.getExpr(), schema);
    if (!imageProblems.isEmpty()) {
      throw new ExpressionException(imageProblems.get(0));
    }
    CelValidationResult checked = compiler.check(ast);
    if (checked.hasError()) {
      throw new ExpressionException("type error: " + describe(checked.getErrors()));
    }
    CelAbstractSyntaxTree result = ast(checked);
    CelType type = result.getResultType();
    if (purpose == Purpose.PREDICATE && type.kind() != CelKind.BOOL && type.kind() != CelKind.DYN) {
      throw new ExpressionException("a where expression must be a bool, but this one is " + type.name());
    }
    if (purpose == Purpose.VALUE && schema != null && ColumnTypes.forResult(type) == null) {
      throw new ExpressionException("a set expression must be an int, uint, double, string, bool, bytes, timestamp or duration, but this one is " + type.name());
    }
    return result;
  }

  private static CelAbstractSyntaxTree ast(CelValidationResult result) throws ExpressionException {
    try {
      return result.getAst();
    } catch (CelValidationException e) {
      throw new ExpressionException(e.getMessage());
    }
  }

  /** The first issue, with its place in the expression: operators fix one at a time anyway. */
  private static String describe(List<CelIssue> issues) {
    CelIssue first = issues.get(0);
    String message = first.getMessage();
    // CEL lists every candidate overload; the first clause says enough.
    int candidates = message.indexOf(" (candidates:");
    if (candidates > 0) {
      message = message.substring(0, candidates);
    }
    return message + " (at expression column " + (first.getSourceLocation().getColumn() + 1) + ")";
  }

  private static CelCompiler compiler(Map<String, CelType> vars) {
    CelCompilerBuilder builder = CelCompilerFactory.standardCelCompilerBuilder().setOptions(OPTIONS);
    vars.forEach(builder::addVar);
    return builder.build();
  }

  /** The declared type used in messages and the explain output. */
  static String typeName(CelType type) {
    return type == SimpleType.DYN ? "dyn" : type.name();
  }
}
