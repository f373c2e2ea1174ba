package io.gridway.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.core.wire.ErrorFrame;

/**
 * A relay's refusal, from a problem JSON document (an HTTP error status) or an ERROR frame (a stream
 * that failed after its status was sent), classified once: what the puller does about it.
 *
 * @param status the HTTP status
 * @param type the stable problem type ({@code scn-evicted}, {@code unknown-partition}, …), or "" when
 *     the body was not a problem document
 * @param detail the relay's explanation
 * @param oldestScn for {@code scn-evicted}: the oldest SCN the relay holds, else -1
 */
record RelayProblem(int status, String type, String detail, long oldestScn) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What to do. */
  enum Kind {
    /** 410: the windows after {@code since} are gone from this relay; another replica may have them. */
    EVICTED,
    /**
     * 400, 404, 401, 403: this request can never succeed on this relay (unknown source or partition, bad parameter, a
     * missing or refused token, plain HTTP sent to a TLS port).
     */
    REJECTED,
    /** 429, 503, 5xx and anything else: try again later, maybe elsewhere. */
    TRANSIENT
  }

  Kind kind() {
    if (status == 410) {
      return Kind.EVICTED;
    }
    if (status == 400 || status == 404 || status == 401 || status == 403) {
      return Kind.REJECTED;
    }
    return Kind.TRANSIENT;
  }

  static RelayProblem parse(int status, String body) {
    try {
      JsonNode json = JSON.readTree(body);
      if (json != null && json.isObject()) {
        String oldest = json.path("oldestScn").asText("");
        return new RelayProblem(status, json.path("type").asText(""), json.path("detail").asText(body),
            oldest.isEmpty() ? -1 : Long.parseUnsignedLong(oldest));
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not a problem document: keep the raw text
    }
    String text = body.length() > 300 ? body.substring(0, 300) + "…" : body;
    return new RelayProblem(status, "", text, -1);
  }

  static RelayProblem of(ErrorFrame error) {
    return new RelayProblem(error.status(), error.type(), error.detail(), error.status() == 410 ? error.scn() : -1);
  }

  @Override
  public String toString() {
    return status + (type.isEmpty() ? "" : " " + type) + ": " + detail;
  }
}
