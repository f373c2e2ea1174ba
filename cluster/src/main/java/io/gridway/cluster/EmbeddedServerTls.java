package io.gridway.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.X509AuthenticationProvider;

/**
 * The embedded server's connection factory: NIO on a plain port, or Netty on a TLS port that requires a client
 * certificate from the CA. ZooKeeper's server picks its factory class and its certificate checker from system
 * properties; the factory's is set around its creation only, under the class lock. The TLS material
 * ({@code zookeeper.ssl.*}) is the process's, see {@link ZkProcessSecurity}. Stateless.
 */
final class EmbeddedServerTls {
  private static final String X509_PROVIDER_KEY = "zookeeper.authProvider.x509";

  private EmbeddedServerTls() {}

  static synchronized ServerCnxnFactory newFactory(ZkTls tls, InetSocketAddress address, int maxConnections)
      throws IOException {
    if (tls == null) {
      return ServerCnxnFactory.createFactory(address, maxConnections);
    }
    // the TLS port checks client certificates with the provider registered for the scheme "x509", which loads the
    // process's key and trust stores when it is registered; it also makes the certificate's subject the session's id
    System.setProperty(X509_PROVIDER_KEY, X509AuthenticationProvider.class.getName());
    ProviderRegistry.initialize();
    ProviderRegistry.addOrUpdateProvider(X509_PROVIDER_KEY);
    String previous = System.getProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY);
    System.setProperty(ServerCnxnFactory.ZOOKEEPER_SERVER_CNXN_FACTORY, NettyServerCnxnFactory.class.getName());
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
}
