package io.gridway.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;

/**
 * The connection factory of {@link EmbeddedZooKeeper#dedicatedWithTls}: Netty on a TLS-only port that needs a client
 * certificate from the CA. ZooKeeper's server takes its factory class and its TLS files from system properties; the
 * factory's is set around its creation only (under the class lock), the TLS files stay set, since the server reads
 * them for every connection it accepts. Stateless.
 */
final class ZooKeeperTlsPort {
  private static final String X509_PROVIDER_KEY = "zookeeper.authProvider.x509";

  private ZooKeeperTlsPort() {}

  /**
   * A configured, not started, secure factory on {@code address}; writes the server's key and certificate to {@code
   * keyStore} first.
   */
  static synchronized ServerCnxnFactory create(
      ServerTlsFiles tls, Path keyStore, InetSocketAddress address, int maxConnections)
      throws IOException {
    writeKeyStore(tls, keyStore);
    try (ClientX509Util x509 = new ClientX509Util()) {
      System.setProperty(x509.getSslKeystoreLocationProperty(), keyStore.toString());
      System.setProperty(x509.getSslKeystoreTypeProperty(), "PEM");
      System.setProperty(x509.getSslTruststoreLocationProperty(), tls.caFile().toString());
      System.setProperty(x509.getSslTruststoreTypeProperty(), "PEM");
      System.setProperty(x509.getSslEnabledProtocolsProperty(), "TLSv1.3,TLSv1.2");
      System.setProperty(x509.getSslClientAuthProperty(), "need");
    }
    // once the handshake is done the port looks up the provider of the scheme "x509" (not registered by default) to
    // make the certificate's subject the session's id, and closes the connection without it; the provider loads the
    // key and trust stores set above when it is registered
    System.setProperty(X509_PROVIDER_KEY, X509AuthenticationProvider.class.getName());
    ProviderRegistry.initialize();
    ProviderRegistry.addOrUpdateProvider(X509_PROVIDER_KEY);
    String previous = System.getProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY);
    System.setProperty(
        ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY, NettyServerCnxnFactory.class.getName());
    ServerCnxnFactory factory;
    try {
      factory = ServerCnxnFactory.createFactory();
    } finally {
      if (previous == null) {
        System.clearProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY);
      } else {
        System.setProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY, previous);
      }
    }
    factory.configure(address, maxConnections, -1, true);
    return factory;
  }

  /** Key first, then the certificate: the order ZooKeeper's PEM key store reads. */
  private static void writeKeyStore(ServerTlsFiles tls, Path keyStore) {
    try {
      Files.deleteIfExists(keyStore);
      Files.createFile(
          keyStore,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(
          keyStore,
          Files.readString(tls.keyFile(), StandardCharsets.US_ASCII)
              + Files.readString(tls.certFile(), StandardCharsets.US_ASCII),
          StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write ZooKeeper's key store " + keyStore, e);
    }
  }
}
