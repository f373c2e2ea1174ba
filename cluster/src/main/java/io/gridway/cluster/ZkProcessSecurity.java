package io.gridway.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a {@link ZkTls} into effect for every ZooKeeper client of this process. Helix 1.4 builds its clients with
 * {@code new ZooKeeper(servers, timeout, watcher)} (also when it re-creates an expired session), and that constructor
 * takes its TLS settings only from JVM-wide system properties. So the setting is process-wide: the first TLS setting
 * wins, and a client asking for another one (plain TCP included) is refused rather than silently connecting with the
 * wrong one. The embedded server in the same process reads the same {@code zookeeper.ssl.*} properties for its port.
 *
 * <p>Thread-safe (static, synchronized).
 */
final class ZkProcessSecurity {
  private static final Logger LOG = LoggerFactory.getLogger(ZkProcessSecurity.class);

  private static ZkTls current; // guarded by the class; null: plain TCP
  private static final Map<String, String> saved = new LinkedHashMap<>(); // property -> previous value (null: unset)

  private ZkProcessSecurity() {}

  /** Makes {@code tls} (null: plain TCP) this process's ZooKeeper client setting, or checks that it already is. */
  static synchronized void apply(ZkTls tls) {
    // the ACL is not a connection setting: clients with and without it share the properties
    if (Objects.equals(tls == null ? null : tls.transport(), current == null ? null : current.transport())) {
      return;
    }
    if (current != null) {
      throw new IllegalStateException("ZooKeeper: this process already connects with " + describe(current)
          + "; a client asked for " + describe(tls) + ". ZooKeeper's client takes its TLS settings from JVM-wide "
          + "properties, so every ZooKeeper setting of one process must name the same zkTls");
    }
    Map<String, String> props = new LinkedHashMap<>();
    try (ClientX509Util x509 = new ClientX509Util()) {
      props.put(ZKClientConfig.SECURE_CLIENT, "true");
      props.put(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
      props.put(x509.getSslTruststoreLocationProperty(), tls.caFile().toString());
      props.put(x509.getSslTruststoreTypeProperty(), "PEM");
      if (tls.keyStoreFile() != null) {
        props.put(x509.getSslKeystoreLocationProperty(), tls.keyStoreFile().toString());
        props.put(x509.getSslKeystoreTypeProperty(), "PEM");
      }
      props.put(x509.getSslEnabledProtocolsProperty(), "TLSv1.3,TLSv1.2");
      props.put(x509.getSslHostnameVerificationEnabledProperty(), "true");
      props.put(x509.getSslClientAuthProperty(), "need"); // read by an embedded server only
      // read by an embedded server only: it watches keyStoreFile and caFile and, when one is replaced, builds the TLS
      // context of its next connections from them and reloads the CA that checks client certificates (without it,
      // both stay as loaded at its first connection until the server restarts)
      props.put(NettyServerCnxnFactory.CLIENT_CERT_RELOAD_KEY, "true");
    }
    props.forEach((key, value) -> {
      saved.putIfAbsent(key, System.getProperty(key));
      System.setProperty(key, value);
    });
    current = tls;
    LOG.info("ZooKeeper clients of this process use {}", describe(tls));
  }

  /** The setting in effect; null for plain TCP. */
  static synchronized ZkTls current() {
    return current;
  }

  /** Back to plain clients, the properties as they were (tests that use several settings in one JVM). */
  static synchronized void reset() {
    saved.forEach((key, value) -> {
      if (value == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, value);
      }
    });
    saved.clear();
    current = null;
  }

  static String describe(ZkTls tls) {
    return tls == null ? "plain TCP" : tls.toString();
  }
}
