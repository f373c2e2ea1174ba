package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.runtime.CelEvaluationException;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.ColumnType;
import io.gridway.core.schema.TableSchema;
import java.math.BigDecimal;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The fast path must answer exactly as CEL does: random expressions of the fast path's subset, over
 * random rows with NULLs, NaN and mixed numbers, evaluated both ways.
 */
class FastPathEquivalenceTest {
  private static final TableSchema T = TableSchema.of("src", "db", "t", List.of(
      Column.of("i", ColumnType.INT),
      Column.of("b", ColumnType.BIGINT),
      Column.of("d", ColumnType.DOUBLE),
      Column.of("f", ColumnType.FLOAT),
      Column.decimal("m", 10, 2),
      Column.text("s", ColumnType.VARCHAR, "utf8mb4")), List.of());

  @Property(tries = 3000)
  void fastPathAgreesWithCel(@ForAll("predicates") String expression, @ForAll("rows") Object[] values) throws Exception {
    CompiledExpression compiled;
    try {
      compiled = Expressions.compile(expression, T, Expressions.Purpose.PREDICATE);
    } catch (ExpressionException typeError) {
      Statistics.label("type-checks").collect(false);
      return; // the generator may combine types CEL rejects; nothing to compare
    }
    Statistics.label("type-checks").collect(true);
    assertThat(compiled.hasFastPath()).as(expression).isTrue();
    Row row = Row.of(T, values);
    ChangeEvent e = ChangeEvent.insert(T, row, Fixtures.SCN, Fixtures.COMMIT_MICROS, 0);
    Object viaCel;
    try {
      viaCel = compiled.evalWithCel(e, row);
    } catch (CelEvaluationException error) {
      viaCel = FastPath.ERROR;
    }
    assertThat(compiled.eval(e, row)).as(expression + " on " + row).isEqualTo(viaCel);
    Statistics.label("result").collect(viaCel == FastPath.ERROR ? "error" : String.valueOf(viaCel));
    Statistics.label("type-checks").coverage(c -> c.check(true).percentage(p -> p > 20));
    Statistics.label("result").coverage(c -> {
      // about 7 % of ~1,000 checks (σ ≈ 0.8 %): 5 % failed a random seed now and then; 2 % is ~20 cases, enough to show errors are compared
      c.check("error").percentage(p -> p > 2);
      c.check("true").percentage(p -> p > 5);
      c.check("false").percentage(p -> p > 5);
    });
  }

  /** A random run found it once: NaN compared with itself, where CEL-Java answers true for one object. */
  @Example
  void nanEqualsNothingNotEvenItselfOnBothPaths() throws Exception {
    Row row = Row.of(T, new Object[] {null, null, Double.NaN, Float.NaN, null, null});
    ChangeEvent e = ChangeEvent.insert(T, row, Fixtures.SCN, Fixtures.COMMIT_MICROS, 0);
    for (String expression : List.of("row.d == row.d", "row.f == row.f", "row.d == row.f", "(row.d == row.d && true)")) {
      CompiledExpression compiled = Expressions.compile(expression, T, Expressions.Purpose.PREDICATE);
      assertThat(compiled.evalWithCel(e, row)).as("CEL: " + expression).isEqualTo(false);
      assertThat(compiled.eval(e, row)).as("fast path: " + expression).isEqualTo(false);
    }
    CompiledExpression notEqual = Expressions.compile("row.d != row.d", T, Expressions.Purpose.PREDICATE);
    assertThat(notEqual.evalWithCel(e, row)).isEqualTo(true);
    assertThat(notEqual.eval(e, row)).isEqualTo(true);
  }

  @Provide
  Arbitrary<String> predicates() {
    return predicate(3);
  }

  private Arbitrary<String> predicate(int depth) {
    Arbitrary<String> leaf = Combinators.combine(operand(), Arbitraries.of("==", "!=", "<", "<=", ">", ">="), operand())
        .as((l, op, r) -> l + " " + op + " " + r);
    Arbitrary<String> in = Combinators.combine(operand(), Arbitraries.of("[1, 2]", "['a', 'b']", "[1.5, null]", "[]"))
        .as((l, list) -> l + " in " + list);
    Arbitrary<String> base = Arbitraries.oneOf(leaf, in, Arbitraries.of("true", "false", "op == 'INSERT'"));
    if (depth == 0) {
      return base;
    }
    Arbitrary<String> sub = predicate(depth - 1);
    return Arbitraries.oneOf(base,
        Combinators.combine(sub, Arbitraries.of("&&", "||"), sub).as((a, op, b) -> "(" + a + " " + op + " " + b + ")"),
        sub.map(a -> "!(" + a + ")"),
        Combinators.combine(sub, sub, sub).as((c, a, b) -> "(" + c + " ? " + a + " : " + b + ")"));
  }

  private Arbitrary<String> operand() {
    return Arbitraries.of("row.i", "row.b", "row.d", "row.f", "row.m", "row.s", "after.i", "before.s",
        "0", "1", "-7", "9223372036854775807", "0.0", "-0.0", "2.5", "1e300", "'a'", "''", "null", "true");
  }

  @Provide
  Arbitrary<Object[]> rows() {
    Arbitrary<Long> ints = Arbitraries.longs().between(-3, 3).injectNull(0.3);
    Arbitrary<Long> bigs = Arbitraries.of(0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, 9007199254740993L).injectNull(0.3);
    Arbitrary<Double> doubles = Arbitraries.of(0.0, -0.0, 1.0, 2.5, Double.NaN, 1e300, -7.0, 9.223372036854776E18).injectNull(0.3);
    Arbitrary<Float> floats = Arbitraries.of(0f, 1f, 2.5f, Float.NaN).injectNull(0.3);
    Arbitrary<BigDecimal> decimals = Arbitraries.of(new BigDecimal("0.00"), new BigDecimal("2.50"), new BigDecimal("-7.00")).injectNull(0.3);
    Arbitrary<String> strings = Arbitraries.of("", "a", "b", "ab").injectNull(0.3);
    return Combinators.combine(ints, bigs, doubles, floats, decimals, strings)
        .as((i, b, d, f, m, s) -> new Object[] {i, b, d, f, m, s});
  }
}
