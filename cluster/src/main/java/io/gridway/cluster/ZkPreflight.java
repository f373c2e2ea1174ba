package io.gridway.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.X509Exception;

/**
 * Checks once per process and connect string, before the first client, that the ZooKeeper client port speaks what
 * this process will speak. ZooKeeper's client never reports a mismatch: a plain client on a TLS port, or a TLS client
 * whose CA does not match, just retries until its caller's timeout. This turns both into an error naming the server.
 *
 * <p>A TLS process completes a TLS handshake with the first server that accepts a connection (its own CA and client
 * certificate); a plain one sends ZooKeeper's {@code srvr} command, which a plain port answers (with the status, or
 * with "not in the whitelist") and a TLS port does not. A server that cannot be reached is left to the client's
 * own retries. Thread-safe.
 */
final class ZkPreflight {
  private static final int TIMEOUT_MILLIS = 3000;
  private static final Set<String> checked = new HashSet<>(); // guarded by the class

  private ZkPreflight() {}

  static void check(String connectString, ZkTls tls) {
    String key = connectString + " " + ZkProcessSecurity.describe(tls);
    synchronized (ZkPreflight.class) {
      if (checked.contains(key)) {
        return;
      }
    }
    String hosts = connectString.contains("/") ? connectString.substring(0, connectString.indexOf('/')) : connectString;
    for (String hostPort : hosts.split(",")) {
      InetSocketAddress address = address(hostPort.strip());
      if (address != null && (tls != null ? handshake(address, hostPort.strip()) : plain(address, hostPort.strip()))) {
        break;
      }
    }
    synchronized (ZkPreflight.class) {
      checked.add(key);
    }
  }

  private static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    try {
      return colon < 0 ? new InetSocketAddress(hostPort, 2181)
          : new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (IllegalArgumentException e) {
      return null; // the client reports a malformed connect string in its own words
    }
  }

  /** True when the server answered in plain text; false when it could not be reached. */
  private static boolean plain(InetSocketAddress address, String hostPort) {
    try (Socket socket = new Socket()) {
      socket.connect(address, TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      // five bytes: a TLS port decides only once it has a whole record header (5 bytes); a plain port reads the
      // command from the first four
      socket.getOutputStream().write("srvr\n".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      if (in.read() >= 0) {
        return true;
      }
    } catch (java.net.SocketTimeoutException e) {
      return true; // slow but there: nothing to say about the protocol
    } catch (IOException e) {
      if (!(e instanceof java.net.SocketException) || e.getMessage() == null || !e.getMessage().contains("reset")) {
        return false;
      }
    }
    throw new IllegalStateException("ZooKeeper " + hostPort + " closed the connection without answering a plain-text "
        + "request: its client port probably requires TLS. Set zkTls (caFile, and keyStoreFile if it asks for a client "
        + "certificate) for this process");
  }

  /** True when the handshake succeeded; false when the server could not be reached. */
  private static boolean handshake(InetSocketAddress address, String hostPort) {
    SSLContext context;
    try (ClientX509Util x509 = new ClientX509Util()) {
      context = x509.createSSLContext(new ZKClientConfig());
    } catch (X509Exception.SSLContextException e) {
      throw new IllegalStateException("zkTls: cannot load the CA or key store for ZooKeeper " + hostPort + ": "
          + rootMessage(e) + "; check zkTls.caFile and zkTls.keyStoreFile (PEM: the private key, then its certificate chain)", e);
    }
    // the name ZooKeeper's client checks the certificate against: it resolves every server of the connect string and
    // keeps the resolved address's host name, so an IP address there is checked as its reverse-lookup name
    String given = address.getHostString();
    String peer = address.isUnresolved() ? given : address.getAddress().getHostName();
    try (Socket tcp = new Socket()) {
      tcp.connect(address, TIMEOUT_MILLIS);
      try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(tcp, peer, address.getPort(), false)) {
        javax.net.ssl.SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        tls.setSSLParameters(parameters);
        tls.setSoTimeout(TIMEOUT_MILLIS);
        tls.startHandshake();
        return true;
      }
    } catch (SSLException e) {
      throw new IllegalStateException("TLS handshake with ZooKeeper " + hostPort + " failed: " + rootMessage(e)
          + ". Check that its client port serves TLS (secureClientPort) and that its certificate chains to zkTls.caFile "
          + "and names " + peer + (peer.equals(given) ? "" : " (the name " + given
          + " resolves back to, which ZooKeeper's client checks)"), e);
    } catch (IOException e) {
      return false;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
