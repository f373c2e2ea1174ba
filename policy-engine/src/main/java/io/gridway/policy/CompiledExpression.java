package io.gridway.policy;

import dev.cel.common.types.CelType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import java.util.Optional;

/**
 * One expression compiled for one table version: CEL's planned program, and when the expression
 * stays within {@link FastPath}'s subset, an equivalent closure tree that runs without CEL's
 * interpreter overhead. Both give the same answers (a property test compares them on random rows).
 *
 * <p>Evaluation errors (a NULL compared with {@code >}, a missing image) are not exceptions to the
 * caller: they yield {@link FastPath#ERROR}, which a predicate treats as "not true". Immutable and
 * thread-safe.
 */
final class CompiledExpression {
  private final String text;
  private final CelType resultType;
  private final CelRuntime.Program program;
  private final EventVars vars;
  private final FastPath.Eval fast;

  CompiledExpression(String text, CelType resultType, CelRuntime.Program program, EventVars vars, FastPath.Eval fast) {
    this.text = text;
    this.resultType = resultType;
    this.program = program;
    this.vars = vars;
    this.fast = fast;
  }

  String text() {
    return text;
  }

  CelType resultType() {
    return resultType;
  }

  boolean hasFastPath() {
    return fast != null;
  }

  /** True only when the expression evaluates to true: false, NULL-caused errors and other errors are not. */
  boolean test(ChangeEvent event, Row row) {
    return eval(event, row) == Boolean.TRUE;
  }

  /** The value (a CEL value), or {@link FastPath#ERROR}. Booleans are the canonical instances. */
  Object eval(ChangeEvent event, Row row) {
    if (fast != null) {
      return fast.eval(event, row);
    }
    try {
      Object value = evalWithCel(event, row);
      return value instanceof Boolean b ? Boolean.valueOf(b) : value;
    } catch (CelEvaluationException e) {
      return FastPath.ERROR;
    }
  }

  /** CEL's own evaluation, always: for explanations (its errors say why) and for cross-checks. */
  Object evalWithCel(ChangeEvent event, Row row) throws CelEvaluationException {
    return program.eval(name -> {
      EventVars.Var var = vars.var(name);
      return var == null ? Optional.empty() : Optional.of(var.get(event, row));
    });
  }
}
