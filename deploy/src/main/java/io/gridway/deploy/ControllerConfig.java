package io.gridway.deploy;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.gridway.cluster.ZkConfig;
import io.gridway.cluster.ZkTls;
import io.gridway.core.config.ConfigLoader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The controller's YAML file ({@code gridway controller --config controller.yaml}); {@code gridway cluster}
 * reads the same file to find ZooKeeper.
 *
 * <pre>
 * cluster: gridway            # the Helix cluster name
 * name: controller-vm1        # unique per controller; default controller-HOSTNAME
 * zk:
 *   connect: zk1:2181,zk2:2181,zk3:2181    # an external ensemble, or instead:
 *   embedded: {dataDir: /var/lib/gridway/zk, port: 2181}
 *   sessionTimeout: 30s
 * </pre>
 *
 * @param cluster the Helix cluster name
 * @param name this controller's instance name
 * @param zk where ZooKeeper is
 */
public record ControllerConfig(@JsonProperty(required = true) String cluster, String name,
    @JsonProperty(required = true) Zk zk) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  public ControllerConfig {
    if (cluster == null || !NAME.matcher(cluster).matches()) {
      throw new IllegalArgumentException("cluster: 1..64 letters, digits, '.', '_' or '-' required, not '" + cluster + "'");
    }
    name = name == null ? "controller-" + hostName() : name;
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("name: 1..64 letters, digits, '.', '_' or '-', not '" + name + "'");
    }
    if (zk == null) {
      throw new IllegalArgumentException("zk: required");
    }
  }

  /** Loads and validates a YAML file; a {@link io.gridway.core.config.ConfigException} names file, line, key and reason. */
  public static ControllerConfig load(Path file) {
    return ConfigLoader.load(file, ControllerConfig.class);
  }

  /**
   * @param connect {@code host:port,...} of an external ensemble
   * @param embedded an in-process server (a single controller, demos and tests; not for production)
   * @param sessionTimeout ZooKeeper session timeout (default 30s): how long a crashed process keeps its partitions
   * @param tls TLS to ZooKeeper with a client certificate ({@code caFile}, {@code keyStoreFile}); with {@code embedded},
   *     the server's port is TLS only (docs/security.md)
   */
  public record Zk(String connect, Embedded embedded, Duration sessionTimeout, ZkTls tls) {
    public Zk {
      if ((connect == null) == (embedded == null)) {
        throw new IllegalArgumentException("set exactly one of connect and embedded");
      }
      sessionTimeout = sessionTimeout == null ? ZkConfig.DEFAULT_SESSION_TIMEOUT : sessionTimeout;
      if (tls != null) {
        tls.requireReadable("zk.tls");
        if (embedded != null && tls.keyStoreFile() == null) {
          throw new IllegalArgumentException("zk.tls.keyStoreFile: required with zk.embedded (the server's certificate)");
        }
      }
      zkConfig(connect, embedded, sessionTimeout, tls); // ZkConfig's checks, reported at load time
    }

    public Zk(String connect, Embedded embedded, Duration sessionTimeout) {
      this(connect, embedded, sessionTimeout, null);
    }

    /** The cluster module's view of this. */
    public ZkConfig toZkConfig() {
      return zkConfig(connect, embedded, sessionTimeout, tls);
    }

    private static ZkConfig zkConfig(String connect, Embedded embedded, Duration sessionTimeout, ZkTls tls) {
      ZkConfig base = connect != null ? ZkConfig.external(connect) : ZkConfig.embedded(embedded.dataDir(), embedded.port());
      return base.withSessionTimeout(sessionTimeout).withTls(tls);
    }

    /** Where a client (cluster init/status) connects: the ensemble, or the embedded server's loopback port. */
    public ZkConfig clientConfig() {
      if (connect != null) {
        return toZkConfig();
      }
      if (embedded.port() == 0) {
        throw new IllegalArgumentException("zk.embedded.port is 0 (any free port): give the port, or use --zk HOST:PORT");
      }
      return toZkConfig().connectedTo("127.0.0.1:" + embedded.port());
    }
  }

  /**
   * @param dataDir snapshots and transaction logs
   * @param port loopback port (default 2181; 0 picks a free one)
   */
  public record Embedded(@JsonProperty(required = true) Path dataDir, Integer port) {
    public Embedded {
      if (dataDir == null) {
        throw new IllegalArgumentException("dataDir: required");
      }
      port = port == null ? 2181 : port;
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "-");
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
