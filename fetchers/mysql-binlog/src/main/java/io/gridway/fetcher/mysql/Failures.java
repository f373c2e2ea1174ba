package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.network.ServerException;
import io.gridway.core.fetch.FetcherException;
import java.util.Locale;

/**
 * The one place where a failure of the replication connection is classified: the errors an operator must
 * fix become a {@link FetcherException} with what to change; everything else (a dropped connection, a
 * restarting server, a timeout) is retried with backoff. Stateless and thread-safe.
 */
final class Failures {
  private static final int ER_ACCESS_DENIED = 1045;
  private static final int ER_SPECIFIC_ACCESS_DENIED = 1227;
  private static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;

  private Failures() {}

  /**
   * The operator's error behind a failure of the replication stream, or null when a reconnect may help.
   *
   * @param facts what the server said before this connection (for the binlog files it still has)
   * @param from where the connection asked to start
   */
  static FetcherException fatal(Throwable error, ServerFacts facts, String user, long serverId, ResumePoint from) {
    FetcherException tls = tls(error, facts.address());
    if (tls != null) {
      return tls;
    }
    if (!(error instanceof ServerException server)) {
      return null;
    }
    String message = server.getMessage() == null ? "" : server.getMessage();
    String lower = message.toLowerCase(Locale.ROOT);
    if (lower.contains("same server_uuid/server_id") || lower.contains("same server_id")) {
      // MariaDB's ER_SLAVE_SAME_ID (4052), MySQL's 1236 with this text: the newer connection won
      return new FetcherException("serverId " + serverId + " clashes with another replica of " + facts.address()
          + ": the server disconnected this fetcher because a replica with the same server_id connected (server: "
          + message + "); give every fetcher and replica of this server its own serverId", error);
    }
    switch (server.getErrorCode()) {
      case ER_ACCESS_DENIED -> {
        return new FetcherException("access denied for user '" + user + "' on " + facts.address() + " (server: " + message
            + "); check user and the password in passwordFile/passwordEnv", error);
      }
      case ER_SPECIFIC_ACCESS_DENIED -> {
        return new FetcherException("user '" + user + "' lacks the REPLICATION SLAVE privilege on " + facts.address()
            + " (server: " + message + "); GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '" + user
            + "'@'<host>'", error);
      }
      case ER_MASTER_FATAL_ERROR_READING_BINLOG -> {
        return readingBinlog(message, lower, facts, from, error);
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * A TLS handshake that failed on the certificate (untrusted, expired, for another host) or a server without TLS when
   * {@code tls} asks for it: settings to change, not a connection to retry.
   */
  static FetcherException tls(Throwable error, String address) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      String text = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof javax.net.ssl.SSLHandshakeException || t instanceof java.security.cert.CertificateException
          || text.contains("hostname verification failed")) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
          root = root.getCause();
        }
        return new FetcherException("TLS to " + address + " refused: " + root.getMessage()
            + "; check tls.mode and tls.caFile, and that the server's certificate names the host in 'host'", error);
      }
      if (t.getMessage() != null && t.getMessage().contains("server does not support SSL")) {
        return new FetcherException(address + " does not offer TLS and tls.mode requires it (" + t.getMessage()
            + ")", error);
      }
    }
    return null;
  }

  private static FetcherException readingBinlog(String message, String lower, ServerFacts facts, ResumePoint from,
      Throwable error) {
    if (lower.contains("could not find first log file")) {
      return facts.binlogs().isEmpty() ? new FetcherException(message, error)
          : facts.purged("binlog position " + from.file() + ":" + from.offset(), from.file());
    }
    if (lower.contains("gtid")) {
      return facts.gtidPurged(from.gtidSet(), message);
    }
    return new FetcherException("the server cannot send its binlog from " + from + " (server: " + message
        + "); check the position, or start from 'end' or 'earliest'", error);
  }
}
