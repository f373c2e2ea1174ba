package io.gridway.policy;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A policy could not be loaded. Carries every problem found, not only the first, so that an
 * operator fixes a file in one pass.
 */
public final class PolicyException extends Exception {
  private final transient List<PolicyError> errors;

  public PolicyException(List<PolicyError> errors) {
    super(errors.stream().map(PolicyError::toString).collect(Collectors.joining("\n")));
    this.errors = List.copyOf(errors);
  }

  /** Every problem, in file order. */
  public List<PolicyError> errors() {
    return errors;
  }
}
