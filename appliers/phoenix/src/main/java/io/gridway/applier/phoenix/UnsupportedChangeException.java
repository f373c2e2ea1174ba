package io.gridway.applier.phoenix;

/**
 * A change rows mode cannot apply safely (an update or delete of a keyless table; a conflict rule other than
 * source-wins): the partition stops.
 */
final class UnsupportedChangeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UnsupportedChangeException(String message) {
    super(message);
  }
}
