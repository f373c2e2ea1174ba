package io.gridway.policy;

import io.gridway.core.event.Operation;

/** The string each operation is in expressions ({@code op == "DELETE"}), computed once. */
final class OpNames {
  private static final String[] NAMES = names();

  private OpNames() {}

  static String of(Operation op) {
    return NAMES[op.ordinal()];
  }

  private static String[] names() {
    Operation[] ops = Operation.values();
    String[] names = new String[ops.length];
    for (Operation op : ops) {
      names[op.ordinal()] = op.name();
    }
    return names;
  }
}
