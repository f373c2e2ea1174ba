package io.gridway.tls;

import io.gridway.core.config.SecretFile;
import java.time.Duration;

/**
 * HTTPS (TLS 1.3 and 1.2 only). The server's certificate and key are either PEM files ({@code certFile}, the
 * chain leaf first, and {@code keyFile}, PKCS#8 unencrypted) or a PKCS#12 key store ({@code keyStoreFile} with
 * {@code keyStorePasswordFile} or {@code keyStorePasswordEnv}). They are read again when a file changes on disk
 * (checked at most every {@code reloadCheck}, on a new connection): rotating a certificate needs no restart, and a
 * file that does not load leaves the previous certificate in use (logged).
 *
 * @param certFile PEM certificate chain
 * @param keyFile PEM private key (PKCS#8, not encrypted: protect it with file permissions)
 * @param keyStoreFile PKCS#12 key store, instead of the two PEM files
 * @param keyStorePasswordFile a file holding the key store's password
 * @param keyStorePasswordEnv an environment variable holding the key store's password
 * @param clientCaFile PEM certificates of the CAs whose client certificates are accepted: mutual TLS, a client
 *     without such a certificate is refused in the handshake; null for server-only TLS
 * @param reloadCheck how often, at most, the files' modification times are compared (default 10s; 0 on every
 *     connection)
 */
public record ServerTlsSettings(String certFile, String keyFile, String keyStoreFile, String keyStorePasswordFile,
    String keyStorePasswordEnv, String clientCaFile, Duration reloadCheck) {
public ServerTlsSettings {
    boolean pem = certFile != null || keyFile != null;
    if (pem == (keyStoreFile != null)) {
      throw new IllegalArgumentException("tls: give either certFile and keyFile (PEM) or keyStoreFile (PKCS#12)");
    }
    if (pem && (certFile == null || keyFile == null)) {
      throw new IllegalArgumentException("tls: " + (certFile == null ? "certFile" : "keyFile")
          + " is required with " + (certFile == null ? "keyFile" : "certFile"));
    }
    if (keyStoreFile != null) {
      SecretFile.requireOne(keyStorePasswordFile, keyStorePasswordEnv, "tls", "keyStorePasswordFile", "keyStorePasswordEnv");
    } else if (keyStorePasswordFile != null || keyStorePasswordEnv != null) {
      throw new IllegalArgumentException("tls: keyStorePasswordFile/keyStorePasswordEnv only with keyStoreFile");
    }
    reloadCheck = reloadCheck == null ? Duration.ofSeconds(10) : reloadCheck;
    if (reloadCheck.isNegative() || reloadCheck.toHours() > 24) {
      throw new IllegalArgumentException("tls.reloadCheck must be 0s..24h, not " + reloadCheck);
    }
  }

  /** Server TLS from PEM files. */
  public static ServerTlsSettings pem(String certFile, String keyFile, String clientCaFile) {
    return new ServerTlsSettings(certFile, keyFile, null, null, null, clientCaFile, null);
  }
}
