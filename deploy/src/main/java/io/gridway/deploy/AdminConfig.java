package io.gridway.deploy;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.gridway.admin.AdminSettings;
import io.gridway.cluster.ZkConfig;
import io.gridway.tls.ServerTlsSettings;
import io.gridway.core.config.ConfigLoader;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The admin service's YAML file ({@code gridway admin --config admin.yaml}); its {@code cluster}, {@code name} and
 * {@code zk} follow controller.yaml's rules.
 *
 * <pre>
 * cluster: gridway
 * name: admin-vm1                 # its Helix controller's name; default admin-HOSTNAME
 * zk: {connect: zk1:2181,zk2:2181,zk3:2181}
 * http: {host: 127.0.0.1, port: 8480}
 * stateDir: /var/lib/gridway/admin
 * sessionTimeout: 8h
 * consumerConfigs:                # optional: a group's consumer file, read for its target (parked changes)
 *   orders: /etc/gridway/consumer-orders.yaml
 * relays:                         # optional: relays with http.tls / http.auth (the consumer's tls and auth)
 *   tls: {caFile: /etc/gridway/tls/relays-ca.pem}
 *   auth: {tokenFile: /etc/gridway/tokens/admin}
 * </pre>
 *
 * @param cluster the Helix cluster name
 * @param name this service's controller instance name
 * @param zk where ZooKeeper is (as in controller.yaml)
 * @param http where the UI and API listen (default 127.0.0.1:8480: loopback unless the operator opens it)
 * @param stateDir users, the first admin's credential and the audit log (required; created 0700)
 * @param sessionTimeout how long a login lasts without activity (default 8h)
 * @param consumerConfigs group → its consumer file, read (never written) for the JDBC target's connection settings
 *     when the UI lists the group's parked changes; the admin service's user must be able to read the file and its
 *     {@code passwordFile}
 * @param relays how the admin service reaches relays with TLS or bearer tokens (its relay probe, a reset's buffer range
 *     and commit-time lookup): the consumer's {@code tls} and {@code auth} settings; absent: plain HTTP, no token
 */
public record AdminConfig(@JsonProperty(required = true) String cluster, String name, @JsonProperty(required = true) ControllerConfig.Zk zk,
    Http http, @JsonProperty(required = true) Path stateDir, Duration sessionTimeout, java.util.Map<String, Path> consumerConfigs,
    AdminSettings.Relays relays) {
  static final int DEFAULT_PORT = 8480;

  public AdminConfig {
    ControllerConfig named = new ControllerConfig(cluster, name == null ? "admin-" + hostName() : name, zk); // the same name rules
    name = named.name();
    http = http == null ? new Http(null, null, null) : http;
    if (stateDir == null) {
      throw new IllegalArgumentException("stateDir: required (users, the first admin credential and the audit log live there)");
    }
    sessionTimeout = sessionTimeout == null ? AdminSettings.DEFAULT_SESSION_TTL : sessionTimeout;
    if (sessionTimeout.isNegative() || sessionTimeout.isZero()) {
      throw new IllegalArgumentException("sessionTimeout: must be positive, not " + sessionTimeout);
    }
    consumerConfigs = consumerConfigs == null ? java.util.Map.of() : java.util.Map.copyOf(consumerConfigs);
    relays = relays == null ? AdminSettings.Relays.NONE : relays;
  }

  /**
   * @param host the address to bind (default 127.0.0.1; 0.0.0.0 opens it to the network: put TLS in front)
   * @param port the port (default 8480; 0 picks a free one)
   * @param tls serve HTTPS, with the relay's {@code http.tls} settings (docs/security.md); null: plain HTTP
   */
  public record Http(String host, Integer port, ServerTlsSettings tls) {
    public Http {
      host = host == null ? AdminSettings.DEFAULT_HOST : host;
      port = port == null ? DEFAULT_PORT : port;
      if (port < 0 || port > 0xFFFF) {
        throw new IllegalArgumentException("port: " + port + " out of range 0..65535");
      }
    }
  }

  /** {@code http.tls}, or null. */
  ServerTlsSettings tls() {
    return http.tls();
  }

  public static AdminConfig load(Path file) {
    return ConfigLoader.load(file, AdminConfig.class);
  }

  /** The admin module's settings, with ZooKeeper at {@code zk} (the embedded server's address once started). */
  AdminSettings settings(ZkConfig zk) {
    return new AdminSettings(zk, cluster, name, http.host(), http.port(), stateDir, sessionTimeout, null, null, consumerConfigs, relays);
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "-");
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }
}
