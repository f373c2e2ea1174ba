package io.gridway.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Picks a port that is free on 127.0.0.1 right now. A native server cannot be handed an already
 * bound socket, so there is a window in which another process can take the port; callers retry on
 * failure (see {@link ServerProcess#lostPortRace()}). Stateless and thread-safe.
 */
final class FreePort {
  private FreePort() {}

  static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    }
  }
}
