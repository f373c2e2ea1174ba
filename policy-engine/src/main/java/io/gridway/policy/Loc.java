package io.gridway.policy;

/**
 * A position in a policy file, 1-based, as operators see it in an editor.
 *
 * @param line the line, or 0 when unknown
 * @param column the column, or 0 when unknown
 */
record Loc(int line, int column) {
  static final Loc UNKNOWN = new Loc(0, 0);
}
