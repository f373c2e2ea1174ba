package io.gridway.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.security.auth.x500.X500Principal;

/**
 * TLS on a process's ZooKeeper connections, with a client certificate that is also its identity: ZooKeeper's
 * {@code x509} scheme authenticates a TLS client by its certificate's subject, which ACLs can name
 * ({@code x509:CN=gridway,O=example}). A server that requires client certificates (ZooKeeper's default for its
 * secure port, and the embedded server's) refuses a client without one from its CA during the handshake.
 *
 * <p>ZooKeeper's client (and so Helix's, which builds {@code new ZooKeeper(servers, timeout, watcher)} itself, also
 * when it re-creates an expired session) takes these settings from JVM-wide properties, so a process has one setting:
 * see {@link ZkProcessSecurity}.
 *
 * @param caFile PEM certificates of the CA(s) the servers' certificates chain to; a server's certificate must also
 *     name the host it is reached by (DNS name or IP address in its subject alternative names)
 * @param keyStoreFile PEM holding this process's private key (PKCS#8, not encrypted) followed by its certificate
 *     chain; null for none (a server that wants a client certificate then refuses the handshake). The embedded server
 *     serves the same certificate.
 * @param acl certificate subjects (X.500 names such as {@code CN=gridway,O=Example}) that get every permission on the
 *     grid's znodes, in ZooKeeper's {@code x509} scheme; nobody else may read, change, create or delete them. Must name
 *     this process's own subject, so needs {@code keyStoreFile}. Null: ZooKeeper's open ACL (any client that can connect
 *     may do anything). Kept in RFC 2253 form, as ZooKeeper compares them.
 */
public record ZkTls(Path caFile, Path keyStoreFile, List<String> acl) {
  public ZkTls {
    Objects.requireNonNull(caFile, "caFile");
    if (acl != null) {
      if (keyStoreFile == null) {
        throw new IllegalArgumentException("zkTls.acl needs zkTls.keyStoreFile: ZooKeeper knows a client by its certificate");
      }
      if (acl.isEmpty()) {
        throw new IllegalArgumentException("zkTls.acl is empty: name the certificate subjects of the grid's processes");
      }
      List<String> normalized = new ArrayList<>();
      for (String subject : acl) {
        try {
          normalized.add(new X500Principal(Objects.requireNonNull(subject, "subject")).getName());
        } catch (IllegalArgumentException | NullPointerException e) {
          throw new IllegalArgumentException("zkTls.acl: '" + subject + "' is not an X.500 name such as CN=gridway,O=Example", e);
        }
      }
      acl = List.copyOf(normalized);
    }
  }

  /** TLS without an ACL on the grid's znodes. */
  public ZkTls(Path caFile, Path keyStoreFile) {
    this(caFile, keyStoreFile, null);
  }

  /** The connection part only (what the process-wide client properties hold). */
  ZkTls transport() {
    return acl == null ? this : new ZkTls(caFile, keyStoreFile);
  }

  /** Checks that the files can be read; {@code key} names the setting in the error (e.g. {@code cluster.zkTls}). */
  public ZkTls requireReadable(String key) {
    requireReadable(caFile, key + ".caFile");
    if (keyStoreFile != null) {
      requireReadable(keyStoreFile, key + ".keyStoreFile");
    }
    if (acl != null) {
      String own = subject(keyStoreFile, key + ".keyStoreFile");
      if (!acl.contains(own)) {
        throw new IllegalArgumentException(key + ".acl " + acl + " does not name this process's certificate subject " + own
            + " (" + key + ".keyStoreFile): the znodes it creates would be closed to itself");
      }
    }
    return this;
  }

  /** The subject of the first certificate in a PEM file, as ZooKeeper's x509 scheme names it. */
  static String subject(Path pem, String key) {
    try {
      String text = java.nio.file.Files.readString(pem, java.nio.charset.StandardCharsets.US_ASCII);
      int begin = text.indexOf("-----BEGIN CERTIFICATE-----"); // after the private key in ZooKeeper's PEM key store
      if (begin < 0) {
        throw new IllegalArgumentException(key + ": " + pem + " holds no certificate (BEGIN CERTIFICATE)");
      }
      InputStream in = new java.io.ByteArrayInputStream(text.substring(begin).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      Certificate first = CertificateFactory.getInstance("X.509").generateCertificate(in);
      return ((X509Certificate) first).getSubjectX500Principal().getName();
    } catch (IOException | CertificateException e) {
      throw new IllegalArgumentException(key + ": cannot read a certificate from " + pem + ": " + e.getMessage(), e);
    }
  }

  private static void requireReadable(Path file, String key) {
    if (!java.nio.file.Files.isReadable(file)) {
      throw new IllegalArgumentException(key + ": cannot read " + file + "; check the path and its permissions");
    }
  }

  @Override
  public String toString() {
    return "TLS (CA " + caFile + (keyStoreFile == null ? ", no client certificate" : ", client certificate " + keyStoreFile)
        + (acl == null ? "" : ", znodes only for " + acl) + ")";
  }
}
