package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.network.SSLMode;
import com.github.shyiko.mysql.binlog.network.SSLSocketFactory;
import io.gridway.core.fetch.FetcherException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The {@link MysqlFetcherConfig.Tls} settings made concrete: the binlog client's SSL mode and socket factory (TLS 1.3/1.2; the CA
 * file as the only trust anchors; the host name checked in the handshake for {@code verify-identity}), and the
 * MariaDB JDBC driver's URL options for the same checks. Immutable and thread-safe.
 */
final class SourceTlsContext {
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final MysqlFetcherConfig.Tls tls;
  private final String host;
  private final int port;
  private final SSLContext context; // null when disabled

  SourceTlsContext(MysqlFetcherConfig.Tls tls, String host, int port) {
    this.tls = tls;
    this.host = host;
    this.port = port;
    this.context = tls.mode() == MysqlFetcherConfig.Tls.Mode.DISABLED ? null : context(tls);
  }

  /**
   * The binlog client's mode. {@code verify-identity} is {@code VERIFY_CA} to the client: the host name is checked in
   * the handshake by {@link #socketFactory()} against {@code host} as configured, whereas the client's own check
   * compares the certificate with the reverse-resolved name of the address ("localhost" for 127.0.0.1).
   */
  SSLMode sslMode() {
    return switch (tls.mode()) {
      case DISABLED -> SSLMode.DISABLED;
      case REQUIRED -> SSLMode.REQUIRED;
      case VERIFY_CA, VERIFY_IDENTITY -> SSLMode.VERIFY_CA;
    };
  }

  /** The factory the binlog client upgrades its socket with, or null when TLS is off. */
  SSLSocketFactory socketFactory() {
    if (context == null) {
      return null;
    }
    return new SSLSocketFactory() {
      @Override
      public SSLSocket createSocket(Socket socket) throws SocketException {
        try {
          SSLSocket ssl = (SSLSocket) context.getSocketFactory().createSocket(socket, host, port, true);
          SSLParameters parameters = ssl.getSSLParameters();
          parameters.setProtocols(PROTOCOLS);
          if (tls.mode() == MysqlFetcherConfig.Tls.Mode.VERIFY_IDENTITY) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
          }
          ssl.setSSLParameters(parameters);
          return ssl;
        } catch (IOException e) {
          SocketException failure = new SocketException("cannot start TLS to " + host + ":" + port + ": " + e.getMessage());
          failure.initCause(e);
          throw failure;
        }
      }
    };
  }

  /** The MariaDB Connector/J options for the same checks ({@code &}-separated, each starting with {@code &}). */
  static String jdbcOptions(MysqlFetcherConfig.Tls tls) {
    String mode = switch (tls.mode()) {
      case DISABLED -> "disable";
      case REQUIRED -> "trust";
      case VERIFY_CA -> "verify-ca";
      case VERIFY_IDENTITY -> "verify-full";
    };
    String options = "&sslMode=" + mode;
    if (tls.mode() != MysqlFetcherConfig.Tls.Mode.DISABLED) {
      options += "&enabledSslProtocolSuites=TLSv1.2,TLSv1.3";
    }
    return tls.caFile() == null ? options : options + "&serverSslCert=" + tls.caFile();
  }

  private static SSLContext context(MysqlFetcherConfig.Tls tls) {
    try {
      TrustManager[] trust;
      if (tls.mode() == MysqlFetcherConfig.Tls.Mode.REQUIRED) {
        trust = new TrustManager[] {new EncryptOnly()};
      } else if (tls.caFile() != null) {
        KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
        anchors.load(null, null);
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(Path.of(tls.caFile()))) {
          certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certificates.isEmpty()) {
          throw new FetcherException("tls.caFile " + tls.caFile() + " holds no PEM certificate");
        }
        int i = 0;
        for (Certificate certificate : certificates) {
          anchors.setCertificateEntry("ca-" + i++, certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(anchors);
        trust = factory.getTrustManagers();
      } else {
        trust = null; // the JDK's default trust store
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new FetcherException("cannot load tls.caFile " + tls.caFile() + ": " + e.getMessage(), e);
    }
  }

  /** {@code required}: encryption without checking who answers (documented as such). */
  private static final class EncryptOnly implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
