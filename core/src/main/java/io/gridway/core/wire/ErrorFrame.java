package io.gridway.core.wire;

import java.util.Objects;

/**
 * The content of an ERROR frame (§7), the last frame of a stream that failed after its HTTP status
 * was sent. Immutable.
 *
 * @param status the HTTP status the error would have had, 0..65535 (for example 410)
 * @param type the stable problem type, as in the relay's JSON problem documents (for example
 *     {@code scn-evicted})
 * @param scn an SCN the error concerns (unsigned), or 0
 * @param detail text for humans, "" for none
 */
public record ErrorFrame(int status, String type, long scn, String detail) {
  public ErrorFrame {
    Objects.requireNonNull(type, "type");
    detail = detail == null ? "" : detail;
    if (status < 0 || status > 0xFFFF) {
      throw new IllegalArgumentException("error status " + status + " does not fit in 16 bits");
    }
  }
}
