package io.gridway.policy;

import dev.cel.common.ast.CelExpr;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Checks how a parsed expression uses {@code before}, {@code after} and {@code row} before the type
 * checker sees it: they are only ever prefixes of a column ({@code after.amount}), never values of
 * their own, and, when the schema is known, the column must exist. Doing this on the parsed tree
 * lets the error name the column ("column 'amount' is not in shop.orders") where the checker would
 * only say "undeclared reference to 'after'". Stateless and thread-safe.
 */
final class ImageRefs {
  private static final Set<String> IMAGES = Set.of(EventVars.IMAGES);

  private ImageRefs() {}

  /** The problems found, empty when none. {@code schema} may be null. */
  static List<String> check(CelExpr root, TableSchema schema) {
    List<String> problems = new ArrayList<>();
    visit(root, schema, problems);
    return problems;
  }

  private static void visit(CelExpr e, TableSchema schema, List<String> problems) {
    switch (e.getKind()) {
      case IDENT -> {
        if (IMAGES.contains(e.ident().name())) {
          problems.add("'" + e.ident().name() + "' is not a value on its own: write " + e.ident().name() + ".<column>");
        }
      }
      case SELECT -> {
        CelExpr operand = e.select().operand();
        if (operand.getKind() == CelExpr.ExprKind.Kind.IDENT && IMAGES.contains(operand.ident().name())) {
          String image = operand.ident().name();
          String column = e.select().field();
          if (e.select().testOnly()) {
            problems.add("has(" + image + "." + column + ") is not supported: every column is present; test " + image + "." + column + " == null");
          } else if (schema != null && schema.indexOf(column) < 0) {
            problems.add("column '" + column + "' is not in " + schema.qualifiedName() + " (" + image + "." + column + ")");
          }
        } else {
          visit(operand, schema, problems);
        }
      }
      case CALL -> {
        e.call().target().ifPresent(t -> visit(t, schema, problems));
        e.call().args().forEach(a -> visit(a, schema, problems));
      }
      case LIST -> e.list().elements().forEach(a -> visit(a, schema, problems));
      case MAP -> e.map().entries().forEach(entry -> {
        visit(entry.key(), schema, problems);
        visit(entry.value(), schema, problems);
      });
      case STRUCT -> e.struct().entries().forEach(entry -> visit(entry.value(), schema, problems));
      case COMPREHENSION -> {
        CelExpr.CelComprehension c = e.comprehension();
        visit(c.iterRange(), schema, problems);
        visit(c.accuInit(), schema, problems);
        visit(c.loopCondition(), schema, problems);
        visit(c.loopStep(), schema, problems);
        visit(c.result(), schema, problems);
      }
      default -> {}
    }
  }
}
