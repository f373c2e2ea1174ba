package io.gridway.relay.snapshot;

import io.gridway.fetcher.mysql.MysqlFetcherConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@link LogMover} of a MySQL/MariaDB source: {@code FLUSH BINARY LOGS}, which starts a new binlog file. Its first
 * position is a new, higher SCN ({@code Scn.ofBinlog}: the file index is the high half), which the snapshot reader sees
 * as the next chunk's high watermark and the fetcher reports in its next heartbeat; no row is written. Needs the
 * {@code RELOAD} privilege for the source user. One short connection per call (at most one call per 63 chunks of an
 * idle source). Thread-safe.
 */
public final class BinlogRotation implements LogMover {
  private final MysqlFetcherConfig config;

  public BinlogRotation(MysqlFetcherConfig config) {
    this.config = config;
  }

  @Override
  public void move() throws SQLException, IOException {
    long timeout = config.connectTimeout().toMillis();
    String url = "jdbc:mariadb://" + config.host() + ":" + config.port() + "/?connectTimeout=" + timeout
        + "&socketTimeout=" + Math.max(30_000, timeout * 3) + tlsOptions(config.tls());
    try (Connection c = DriverManager.getConnection(url, config.user(), password());
        Statement s = c.createStatement()) {
      s.execute("FLUSH BINARY LOGS");
    }
  }

  /** The fetcher's own reading of the password (its class is package-private): file without its newline, or env. */
  private String password() throws IOException {
    if (config.passwordFile() != null) {
      String text = Files.readString(Path.of(config.passwordFile()), StandardCharsets.UTF_8);
      return text.endsWith("\r\n") ? text.substring(0, text.length() - 2)
          : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }
    String value = System.getenv(config.passwordEnv());
    if (value == null) {
      throw new IOException("environment variable " + config.passwordEnv() + " (passwordEnv) is not set");
    }
    return value;
  }

  /** The same TLS checks as the fetcher's own connections (MariaDB Connector/J options). */
  private static String tlsOptions(MysqlFetcherConfig.Tls tls) {
    if (tls == null) {
      return "";
    }
    String options = "&sslMode=" + switch (tls.mode()) {
      case DISABLED -> "disable";
      case REQUIRED -> "trust";
      case VERIFY_CA -> "verify-ca";
      case VERIFY_IDENTITY -> "verify-full";
    };
    if (tls.mode() != MysqlFetcherConfig.Tls.Mode.DISABLED) {
      options += "&enabledSslProtocolSuites=TLSv1.2,TLSv1.3";
    }
    return tls.caFile() == null ? options : options + "&serverSslCert=" + tls.caFile();
  }
}
