package io.gridway.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems of one policy file while it is read and compiled, so that all of them are
 * reported together. Not thread-safe: one per load.
 */
final class Problems {
  private final String file;
  private final List<PolicyError> errors = new ArrayList<>();

  Problems(String file) {
    this.file = file;
  }

  String file() {
    return file;
  }

  void add(Loc loc, String rule, String reason) {
    errors.add(new PolicyError(file, loc.line(), loc.column(), rule, reason));
  }

  boolean isEmpty() {
    return errors.isEmpty();
  }

  int count() {
    return errors.size();
  }

  List<PolicyError> errors() {
    return List.copyOf(errors);
  }
}
