package io.gridway.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which TLS implementation the data path's Netty contexts use (the relay's HTTPS server, the admin service's, the
 * consumer's connections to relays): OpenSSL (BoringSSL from netty-tcnative, shipped for linux-x86_64) when its native
 * library loads, else the JDK's. Encrypting a stream of change events costs the JDK's provider several times the CPU
 * of BoringSSL's; both offer the same protocols (TLS 1.3, 1.2) and take the same PEM and PKCS#12 files.
 *
 * <p>The system property {@value #PROPERTY} ({@code jdk}, {@code openssl}) overrides the choice: {@code jdk} for a
 * comparison or to rule the native library out; {@code openssl} where it does not load is an error naming the cause
 * rather than a silent fallback. Chosen once per process, on first use, with one log line.
 *
 * <p>Thread-safe.
 */
public final class TlsProviders {
  /** Overrides the choice: {@code jdk} or {@code openssl}. */
  public static final String PROPERTY = "gridway.tls.provider";

  private static final Logger LOG = LoggerFactory.getLogger(TlsProviders.class);
  private static volatile SslProvider chosen;

  private TlsProviders() {}

  /** The provider for Netty {@code SslContext}s of this process. */
  public static SslProvider netty() {
    SslProvider provider = chosen;
    if (provider == null) {
      synchronized (TlsProviders.class) {
        provider = chosen;
        if (provider == null) {
          provider = choose(System.getProperty(PROPERTY));
          chosen = provider;
        }
      }
    }
    return provider;
  }

  static SslProvider choose(String setting) {
    String wanted = setting == null ? "" : setting.trim().toLowerCase(Locale.ROOT);
    switch (wanted) {
      case "jdk" -> {
        LOG.info("TLS: the JDK's provider ({}=jdk)", PROPERTY);
        return SslProvider.JDK;
      }
      case "openssl" -> {
        if (!OpenSsl.isAvailable()) {
          throw new IllegalStateException(PROPERTY + "=openssl, but OpenSSL does not load here: "
              + OpenSsl.unavailabilityCause() + " (netty-tcnative-boringssl-static is shipped for linux-x86_64 only)");
        }
        LOG.info("TLS: OpenSSL ({}) ({}=openssl)", OpenSsl.versionString(), PROPERTY);
        return SslProvider.OPENSSL;
      }
      case "" -> {
        if (OpenSsl.isAvailable()) {
          LOG.info("TLS: OpenSSL ({})", OpenSsl.versionString());
          return SslProvider.OPENSSL;
        }
        LOG.info("TLS: the JDK's provider (OpenSSL does not load here: {})", OpenSsl.unavailabilityCause().toString());
        return SslProvider.JDK;
      }
      default -> throw new IllegalArgumentException(PROPERTY + "=" + setting + ": expected jdk or openssl");
    }
  }
}
