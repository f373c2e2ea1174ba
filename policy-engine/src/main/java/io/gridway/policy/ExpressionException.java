package io.gridway.policy;

/** An expression does not compile (parse, reference or type error); the message is the reason. */
final class ExpressionException extends Exception {
  ExpressionException(String reason) {
    super(reason);
  }
}
