package io.gridway.policy;

import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Row;
import io.gridway.core.schema.TableSchema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The variables an expression may read, for one table schema (or for none: then the row images
 * are untyped maps and only {@code op}, {@code database}, {@code table} and {@code commitTime} are
 * typed).
 *
 * <ul>
 *   <li>{@code op}: {@code "INSERT"}, {@code "UPDATE"}, {@code "DELETE"}, {@code "TRUNCATE"} or
 *       {@code "SCHEMA_CHANGE"};
 *   <li>{@code database}, {@code table}: the source names;
 *   <li>{@code commitTime}: the source commit time, a timestamp;
 *   <li>{@code before.c}, {@code after.c}: column {@code c} of the before/after image; every column
 *       is NULL when the event has no such image (the after image of a DELETE);
 *   <li>{@code row.c}: the image a rule is about: for {@code where}, the after image or, for a
 *       DELETE, the before image; for {@code set}, the image being transformed.
 * </ul>
 *
 * <p>Each variable is declared once per schema as a flat, qualified name ({@code after.amount}):
 * CEL's checker resolves {@code after.amount} to it, so a column's type is checked without a
 * protobuf message type, and a reference to a missing column is caught at compile time. Immutable
 * and thread-safe.
 */
final class EventVars {
  static final String[] IMAGES = {"before", "after", "row"};

  /** Reads one variable from an event and the rule's current image. */
  interface Var {
    Object get(ChangeEvent event, Row row);
  }

  private final Map<String, CelType> types = new LinkedHashMap<>();
  private final Map<String, Var> vars = new LinkedHashMap<>();

  private EventVars() {}

  /** The variables of a table version: every column under each of the three images. */
  static EventVars forSchema(TableSchema schema) {
    EventVars v = common();
    for (int i = 0; i < schema.columnCount(); i++) {
      CelType type = CelValues.declaredType(schema.column(i));
      String name = schema.column(i).name();
      int index = i;
      v.add("before." + name, type, (e, r) -> column(e.before(), index));
      v.add("after." + name, type, (e, r) -> column(e.after(), index));
      v.add("row." + name, type, (e, r) -> column(r, index));
    }
    return v;
  }

  /** The variables when no schema is known: images are maps of dynamic values. */
  static Map<String, CelType> schemaless() {
    Map<String, CelType> types = new LinkedHashMap<>(common().types);
    for (String image : IMAGES) {
      types.put(image, dev.cel.common.types.MapType.create(SimpleType.STRING, SimpleType.DYN));
    }
    return types;
  }

  private static EventVars common() {
    EventVars v = new EventVars();
    v.add("op", SimpleType.STRING, (e, r) -> OpNames.of(e.op()));
    v.add("database", SimpleType.STRING, (e, r) -> e.database());
    v.add("table", SimpleType.STRING, (e, r) -> e.table());
    v.add("commitTime", SimpleType.TIMESTAMP, (e, r) -> CelValues.timestamp(e.commitTimeMicros()));
    return v;
  }

  private void add(String name, CelType type, Var var) {
    types.put(name, type);
    vars.put(name, var);
  }

  private static Object column(Row row, int index) {
    return row == null ? CelValues.NULL : CelValues.toCel(row.get(index));
  }

  Map<String, CelType> types() {
    return types;
  }

  /** The variable of a qualified name, or null. */
  Var var(String name) {
    return vars.get(name);
  }

  /** For the fast path: which image and column a name reads, or null for the non-column variables. */
  static ColumnRef columnRef(String name, TableSchema schema) {
    int dot = name.indexOf('.');
    if (dot < 0) {
      return null;
    }
    String image = name.substring(0, dot);
    int index = schema.indexOf(name.substring(dot + 1));
    if (index < 0) {
      return null;
    }
    return switch (image) {
      case "before" -> new ColumnRef(Image.BEFORE, index);
      case "after" -> new ColumnRef(Image.AFTER, index);
      case "row" -> new ColumnRef(Image.ROW, index);
      default -> null;
    };
  }

  enum Image {
    BEFORE,
    AFTER,
    ROW
  }

  record ColumnRef(Image image, int index) {
    Row row(ChangeEvent e, Row current) {
      return switch (image) {
        case BEFORE -> e.before();
        case AFTER -> e.after();
        case ROW -> current;
      };
    }
  }
}
