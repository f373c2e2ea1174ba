package io.gridway.relay.buffer;

/**
 * A window that does not fit one chunk of the buffer (see {@code buffer.maxWindow}). The relay
 * cannot publish it whole and must not publish it in parts, so this is fatal for the publisher.
 */
public final class WindowTooLargeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  WindowTooLargeException(long scn, int maxWindowBytes) {
    super("window " + Long.toUnsignedString(scn) + " is larger than buffer.maxWindow (" + maxWindowBytes
        + " bytes); raise buffer.maxWindow (and buffer.capacity) to hold transactions this large");
  }
}
