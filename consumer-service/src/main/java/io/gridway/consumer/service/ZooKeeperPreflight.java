package io.gridway.consumer.service;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks, before any Helix or ZooKeeper client is made, that at least one server of a ZooKeeper connect string accepts
 * a TCP connection. Why not let Helix find out: its client waits 60 s per attempt whatever {@code startTimeout} says, and
 * ZooKeeper's own client logs a WARN line with a stack trace about every second while it cannot connect; so a consumer
 * started before ZooKeeper (every boot of a one-VM install, where the controller hosts it) would log hundreds of lines and
 * overrun its start timeout. This check fails in at most {@code timeout} per server, and {@link StartRetry} logs it once.
 *
 * <p>A port that accepts connections but a server that does not serve (an ensemble without quorum) passes here; Helix's
 * own timeout then applies. Stateless.
 */
final class ZooKeeperPreflight {
  private ZooKeeperPreflight() {}

  /**
   * Returns when a server of {@code connectString} ({@code host:port[,host:port...][/chroot]}) accepts a connection.
   *
   * @param key the setting that names it, for the message (e.g. {@code cluster.zk})
   * @throws PeerUnavailableException naming the connect string, the key and each server's failure, when none does
   */
  static void check(String connectString, String key, Duration timeout) {
    List<String> failures = new ArrayList<>();
    IOException last = null;
    for (InetSocketAddress server : servers(connectString, key)) {
      try (Socket socket = new Socket()) {
        // resolved per attempt: a name that does not resolve yet (DNS at boot) is retried like a refused port
        socket.connect(new InetSocketAddress(server.getHostString(), server.getPort()), (int) Math.max(1, timeout.toMillis()));
        return;
      } catch (IOException e) {
        failures.add(server.getHostString() + ":" + server.getPort() + " (" + describe(e) + ")");
        last = e;
      }
    }
    throw new PeerUnavailableException("ZooKeeper " + connectString + " (" + key + ") is not reachable: "
        + String.join(", ", failures), last);
  }

  /** The servers of a connect string, unresolved (a name that does not resolve is a failure to connect, not a setting). */
  static List<InetSocketAddress> servers(String connectString, String key) {
    String hosts = connectString.strip();
    int chroot = hosts.indexOf('/');
    hosts = chroot < 0 ? hosts : hosts.substring(0, chroot);
    List<InetSocketAddress> servers = new ArrayList<>();
    for (String hostPort : hosts.split(",")) {
      String s = hostPort.strip();
      int colon = s.lastIndexOf(':');
      String host = colon < 0 ? s : s.substring(0, colon);
      int port = 2181;
      if (colon >= 0) {
        try {
          port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(key + ": '" + s + "' in '" + connectString + "' has no port number", e);
        }
      }
      if (host.isEmpty() || port < 1 || port > 65535) {
        throw new IllegalArgumentException(key + ": '" + s + "' in '" + connectString + "' is not host:port");
      }
      servers.add(InetSocketAddress.createUnresolved(host.replace("[", "").replace("]", ""), port));
    }
    return servers;
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
  }
}
