package io.gridway.consumer;

import io.netty.handler.ssl.NotSslRecordException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertPathValidatorException;
import javax.net.ssl.SSLException;

/**
 * Turns a failed TLS handshake into what an operator can act on: an untrusted, expired or misnamed certificate, a
 * refused client certificate, or a peer that does not speak TLS. The JDK's own messages stay in parentheses. Public
 * so that the consumer service's start-up checks use the same words. Stateless.
 */
public final class TlsFailures {
  private TlsFailures() {}

  /** Whether {@code error} is (or wraps) a TLS failure. */
  public static boolean isTls(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SSLException || t instanceof NotSslRecordException) {
        return true;
      }
    }
    return false;
  }

  /** The cause in an operator's words, with the JDK's message. */
  public static String describe(Throwable error) {
    String root = rootMessage(error);
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof NotSslRecordException) {
        return "the peer does not speak TLS (a plain HTTP port?)";
      }
      if (t instanceof CertificateExpiredException) {
        return "its certificate has expired (" + t.getMessage() + ")";
      }
      if (t instanceof CertificateNotYetValidException) {
        return "its certificate is not valid yet (" + t.getMessage() + ")";
      }
      if (t instanceof CertPathValidatorException validator && validator.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
        return "its certificate has expired (" + root + ")";
      }
    }
    String lower = root.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("unsupported or unrecognized ssl message") || lower.contains("not an ssl/tls record")) {
      return "the peer does not speak TLS (a plain HTTP port?) (" + root + ")";
    }
    if (lower.contains("pkix path") || lower.contains("unable to find valid certification path")) {
      return "its certificate is not signed by a trusted CA (tls.caFile) (" + root + ")";
    }
    if (lower.contains("no subject alternative") || lower.contains("no name matching")) {
      return "its certificate does not name the host of the URL (" + root + ")";
    }
    if (lower.contains("bad_certificate") || lower.contains("certificate_required") || lower.contains("unknown_ca")) {
      return "the peer refused this client's certificate, or it requires one (tls.certFile) (" + root + ")";
    }
    if (lower.contains("certificate_expired")) {
      return "the peer says this client's certificate has expired (" + root + ")";
    }
    return root;
  }

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }
}
