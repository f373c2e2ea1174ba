package io.gridway.applier.jdbc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketOption;
import javax.net.SocketFactory;
import jdk.net.ExtendedSocketOptions;

/**
 * The PostgreSQL driver's sockets ({@code socketFactory}), probing a silent server with TCP keepalives after
 * {@value #IDLE_SECONDS} s, every {@value #INTERVAL_SECONDS} s, {@value #COUNT} times: a connection whose server side
 * is gone is then reset within about 25 s instead of the kernel's two hours. The driver turns the probes on
 * ({@code tcpKeepAlive=true}); it has no setting for their timing, hence this factory.
 *
 * <p>Why: a consumer cut off from its target while it waits for an answer (a checkpoint write or a statement that had
 * reached the server) has nothing left to send, so nothing on its side ever notices that the answer will not come:
 * the server ends the session meanwhile (the idle transaction timeout, or a successor's {@link StaleSessionReaper}),
 * and its closing bytes are lost with the partition. The thread then waited in a socket read for good — a healed
 * owner never finished giving its partition up, since that waits for its checkpoint writer (ConsumerHostPartitionIT
 * under -Pchaos). A probe after the heal is answered with a reset by the server's host; during the partition the
 * probes go unanswered. A healthy server answers probes, so a long statement or lock wait is not cut short. Where the
 * platform cannot set the timing, the socket keeps the system's defaults.
 *
 * <p>Public with a no-argument constructor: the driver instantiates it by name.
 */
public final class KeepAliveSocketFactory extends SocketFactory {
  static final int IDLE_SECONDS = 10;
  static final int INTERVAL_SECONDS = 5;
  static final int COUNT = 3;

  public KeepAliveSocketFactory() {}

  @Override
  public Socket createSocket() throws IOException {
    Socket socket = new Socket();
    socket.setKeepAlive(true);
    set(socket, ExtendedSocketOptions.TCP_KEEPIDLE, IDLE_SECONDS);
    set(socket, ExtendedSocketOptions.TCP_KEEPINTERVAL, INTERVAL_SECONDS);
    set(socket, ExtendedSocketOptions.TCP_KEEPCOUNT, COUNT);
    return socket;
  }

  private static void set(Socket socket, SocketOption<Integer> option, int value) throws IOException {
    if (socket.supportedOptions().contains(option)) {
      socket.setOption(option, value);
    }
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
  }

  private Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
    Socket socket = createSocket();
    try {
      if (local != null) {
        socket.bind(local);
      }
      socket.connect(remote);
      return socket;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }
}
