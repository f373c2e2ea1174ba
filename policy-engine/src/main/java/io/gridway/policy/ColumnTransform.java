package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.Column;
import io.gridway.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code columns} rule compiled for one source table version: the derived schema (a new schema
 * id, computed once) and, per output column, where its value comes from, so that mapping a row is
 * one pass over precomputed arrays.
 *
 * <p>Order of effects: {@code keep}/{@code drop} choose the source columns that stay (in source
 * order); {@code mask}, {@code hash} and {@code set} replace values (a {@code set} of a new name
 * appends a column); {@code rename} renames last. All names in a rule are source names. Key columns
 * cannot be dropped or masked (appliers need a unique key); they can be hashed, which keeps them
 * unique. A masked or hashed NULL stays NULL; a {@code set} expression that fails (it read a NULL)
 * or whose value does not fit yields NULL.
 *
 * <p>Immutable and thread-safe.
 */
final class ColumnTransform {
  private static final byte COPY = 0;
  private static final byte MASK = 1;
  private static final byte HASH = 2;
  private static final byte SET = 3;

  private final TableSchema derived;
  private final byte[] kinds;
  private final int[] from;
  private final Object[] constants;
  private final CompiledExpression[] expressions;
  private final ColumnTypes.Result[] results;
  private final HmacSha256 hmac;
  private final List<String> effects;

  private ColumnTransform(TableSchema derived, byte[] kinds, int[] from, Object[] constants, CompiledExpression[] expressions,
      ColumnTypes.Result[] results, HmacSha256 hmac, List<String> effects) {
    this.derived = derived;
    this.kinds = kinds;
    this.from = from;
    this.constants = constants;
    this.expressions = expressions;
    this.results = results;
    this.hmac = hmac;
    this.effects = List.copyOf(effects);
  }

  TableSchema derived() {
    return derived;
  }

  /**
   * Whether the derived key is the source key: the same columns, names and values, in key order. Then a target row's key
   * is the source row's, which a snapshot chunk's key range relies on ({@link KeyRouting}); a chunk without rows of a
   * partition names its range with the source's schema.
   */
  boolean keepsKey(TableSchema source) {
    int[] keys = derived.keyIndexes();
    int[] sourceKeys = source.keyIndexes();
    if (keys.length != sourceKeys.length) {
      return false;
    }
    for (int k = 0; k < keys.length; k++) {
      if (kinds[keys[k]] != COPY || from[keys[k]] != sourceKeys[k]
          || !derived.column(keys[k]).name().equals(source.column(sourceKeys[k]).name())) {
        return false;
      }
    }
    return true;
  }

  /** One line per changed column, for explanations: "email: hashed", "phone: masked". */
  List<String> effects() {
    return effects;
  }

  ChangeEvent apply(ChangeEvent e) {
    Object[] after = e.after() == null ? null : map(e, e.after(), null, null);
    Object[] before = e.before() == null ? null : map(e, e.before(), e.after(), after);
    // every value is already checked (see Row.ofChecked): copies of checked source values, masks checked
    // at compile time, 64 hex digits for a CHAR(64), computed values checked in computed()
    return new ChangeEvent(derived, e.op(), before == null ? null : Row.ofChecked(derived, before),
        after == null ? null : Row.ofChecked(derived, after), e.ddl(), e.scn(), e.commitTimeMicros(), e.partition(), e.origin());
  }

  /**
   * The output values of one image. For the before image of an UPDATE, {@code other} is the after
   * image and {@code otherOut} its output: a hash of an unchanged value is reused, not recomputed
   * (an HMAC is the costliest step here, and most updates leave most columns alone).
   */
  private Object[] map(ChangeEvent e, Row image, Row other, Object[] otherOut) {
    Object[] out = new Object[kinds.length];
    for (int i = 0; i < out.length; i++) {
      switch (kinds[i]) {
        case COPY -> out[i] = image.held(from[i]); // as held: text the decoder kept as UTF-8 is not decoded to be copied
        case MASK -> out[i] = image.isNull(from[i]) ? null : constants[i];
        case HASH -> {
          Object value = image.get(from[i]);
          out[i] = value == null ? null
              : other != null && value.equals(other.get(from[i])) ? otherOut[i]
              : hmac.hex(value);
        }
        default -> out[i] = computed(i, e, image);
      }
    }
    return out;
  }

  private Object computed(int i, ChangeEvent e, Row image) {
    Object value = expressions[i].eval(e, image);
    if (value == FastPath.ERROR || value == CelValues.NULL) {
      return null;
    }
    try {
      Object converted = results[i].fromCel().apply(value);
      return derived.column(i).checkValue(converted) == null ? converted : null;
    } catch (RuntimeException conversionFailed) {
      return null;
    }
  }

  /** Compiles a rule for a table version. */
  static ColumnTransform compile(RuleSpec rule, TableSchema source, HmacSha256 hmac) throws RuleException {
    RuleSpec.Columns spec = (RuleSpec.Columns) rule.body();
    List<RuleSpec.ColumnName> referenced = new ArrayList<>();
    referenced.addAll(spec.keep());
    referenced.addAll(spec.drop());
    referenced.addAll(spec.rename().keySet());
    referenced.addAll(spec.mask().keySet());
    referenced.addAll(spec.hash());
    for (RuleSpec.ColumnName c : referenced) {
      if (source.indexOf(c.name()) < 0) {
        throw new RuleException(rule, c.loc(), "column '" + c.name() + "' is not in " + source.qualifiedName());
      }
    }
    Set<String> keys = new HashSet<>(source.primaryKey());
    Set<String> kept = new HashSet<>();
    spec.keep().forEach(c -> kept.add(c.name()));
    Set<String> dropped = new HashSet<>();
    spec.drop().forEach(c -> dropped.add(c.name()));
    Map<String, RuleSpec.ColumnName> masked = byName(spec.mask().keySet());
    Map<String, RuleSpec.ColumnName> hashed = byName(spec.hash());
    Map<String, RuleSpec.Expr> computed = new LinkedHashMap<>();
    Map<String, Loc> computedLocs = new HashMap<>();
    spec.set().forEach((c, expr) -> {
      computed.put(c.name(), expr);
      computedLocs.put(c.name(), c.loc());
    });
    Map<String, String> renames = new HashMap<>();
    spec.rename().forEach((c, to) -> renames.put(c.name(), to));

    Builder b = new Builder(rule, source, hmac);
    for (int i = 0; i < source.columnCount(); i++) {
      Column column = source.column(i);
      String name = column.name();
      boolean stays = kept.isEmpty() ? !dropped.contains(name) : kept.contains(name) || computed.containsKey(name);
      if (!stays) {
        if (keys.contains(name)) {
          throw new RuleException(rule, rule.loc(), "key column '" + name + "' of " + source.qualifiedName() + " cannot be dropped: appliers need the key (hash it instead)");
        }
        b.effects.add(name + ": dropped");
        continue;
      }
      String outName = renames.getOrDefault(name, name);
      if (masked.containsKey(name)) {
        if (keys.contains(name)) {
          throw new RuleException(rule, masked.get(name).loc(), "key column '" + name + "' cannot be masked: every row would get the same key (hash it instead)");
        }
        b.mask(i, outName, spec.mask().get(masked.get(name)), masked.get(name).loc());
      } else if (hashed.containsKey(name)) {
        b.hash(i, outName);
      } else if (computed.containsKey(name)) {
        if (keys.contains(name)) {
          throw new RuleException(rule, computedLocs.get(name), "key column '" + name + "' cannot be replaced by set");
        }
        b.set(outName, computed.remove(name));
      } else {
        b.copy(i, outName, !outName.equals(name));
      }
    }
    for (Map.Entry<String, RuleSpec.Expr> added : computed.entrySet()) {
      b.set(renames.getOrDefault(added.getKey(), added.getKey()), added.getValue());
    }
    List<String> key = new ArrayList<>();
    source.primaryKey().forEach(k -> key.add(renames.getOrDefault(k, k)));
    return b.build(key);
  }

  private static Map<String, RuleSpec.ColumnName> byName(Iterable<RuleSpec.ColumnName> names) {
    Map<String, RuleSpec.ColumnName> out = new HashMap<>();
    names.forEach(n -> out.put(n.name(), n));
    return out;
  }

  /** Accumulates output columns while {@link #compile} walks the source columns. */
  private static final class Builder {
    private final RuleSpec rule;
    private final TableSchema source;
    private final HmacSha256 hmac;
    private final List<Column> columns = new ArrayList<>();
    private final List<Byte> kinds = new ArrayList<>();
    private final List<Integer> from = new ArrayList<>();
    private final List<Object> constants = new ArrayList<>();
    private final List<CompiledExpression> expressions = new ArrayList<>();
    private final List<ColumnTypes.Result> results = new ArrayList<>();
    private final List<String> effects = new ArrayList<>();

    Builder(RuleSpec rule, TableSchema source, HmacSha256 hmac) {
      this.rule = rule;
      this.source = source;
      this.hmac = hmac;
    }

    void copy(int index, String name, boolean renamed) {
      Column c = source.column(index);
      // a copy keeps all of the column (its declared type and default too: a UUID stays uuid on PostgreSQL)
      add(new Column(name, c.type(), c.unsigned(), c.nullable(), c.length(), c.precision(), c.scale(), c.charset(), c.members(),
          c.declared(), c.defaultValue()), COPY, index, null, null, null);
      if (renamed) {
        effects.add(c.name() + ": renamed to " + name);
      }
    }

    void mask(int index, String name, YNode.YScalar replacement, Loc loc) throws RuleException {
      Column c = source.column(index);
      Object value;
      try {
        value = ColumnTypes.maskValue(c, replacement);
      } catch (IllegalArgumentException e) {
        throw new RuleException(rule, loc, e.getMessage());
      }
      add(new Column(name, c.type(), c.unsigned(), c.nullable(), c.length(), c.precision(), c.scale(), c.charset(), c.members()),
          MASK, index, value, null, null);
      effects.add(c.name() + ": masked" + renamedTo(c.name(), name));
    }

    void hash(int index, String name) {
      Column c = source.column(index);
      add(ColumnTypes.hashed(c, name), HASH, index, null, null, null);
      effects.add(c.name() + ": hashed (HMAC-SHA-256)" + renamedTo(c.name(), name));
    }

    void set(String name, RuleSpec.Expr expr) throws RuleException {
      CompiledExpression compiled;
      try {
        compiled = Expressions.compile(expr.text(), source, Expressions.Purpose.VALUE);
      } catch (ExpressionException e) {
        throw new RuleException(rule, expr.loc(), "set " + name + ": " + e.getMessage());
      }
      ColumnTypes.Result result = ColumnTypes.forResult(compiled.resultType());
      add(result.column().apply(name), SET, -1, null, compiled, result);
      effects.add(name + ": set to " + expr.text() + " (" + result.celType() + ")");
    }

    private static String renamedTo(String from, String to) {
      return from.equals(to) ? "" : ", renamed to " + to;
    }

    private void add(Column column, byte kind, int index, Object constant, CompiledExpression expression, ColumnTypes.Result result) {
      columns.add(column);
      kinds.add(kind);
      from.add(index);
      constants.add(constant);
      expressions.add(expression);
      results.add(result);
    }

    ColumnTransform build(List<String> key) throws RuleException {
      Set<String> names = new HashSet<>();
      for (Column c : columns) {
        if (!names.add(c.name())) {
          throw new RuleException(rule, rule.loc(), "two columns of " + source.qualifiedName() + " would be named '" + c.name() + "'");
        }
      }
      if (columns.isEmpty()) {
        throw new RuleException(rule, rule.loc(), "no column of " + source.qualifiedName() + " would be left");
      }
      TableSchema derived = TableSchema.of(source.source(), source.database(), source.table(), columns, key);
      byte[] k = new byte[kinds.size()];
      int[] f = new int[kinds.size()];
      for (int i = 0; i < k.length; i++) {
        k[i] = kinds.get(i);
        f[i] = from.get(i);
      }
      return new ColumnTransform(derived, k, f, constants.toArray(), expressions.toArray(new CompiledExpression[0]),
          results.toArray(new ColumnTypes.Result[0]), hmac, effects);
    }
  }
}
