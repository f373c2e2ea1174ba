package io.gridway.cluster;

import java.nio.file.Path;
import java.util.Objects;

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
 */
public record ZkTls(Path caFile, Path keyStoreFile) {
  public ZkTls {
    Objects.requireNonNull(caFile, "caFile");
  }

  /** Checks that the files can be read; {@code key} names the setting in the error (e.g. {@code cluster.zkTls}). */
  public ZkTls requireReadable(String key) {
    requireReadable(caFile, key + ".caFile");
    if (keyStoreFile != null) {
      requireReadable(keyStoreFile, key + ".keyStoreFile");
    }
    return this;
  }

  private static void requireReadable(Path file, String key) {
    if (!java.nio.file.Files.isReadable(file)) {
      throw new IllegalArgumentException(key + ": cannot read " + file + "; check the path and its permissions");
    }
  }

  @Override
  public String toString() {
    return "TLS (CA " + caFile + (keyStoreFile == null ? ", no client certificate" : ", client certificate " + keyStoreFile) + ")";
  }
}
