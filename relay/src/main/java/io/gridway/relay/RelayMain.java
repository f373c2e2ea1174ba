package io.gridway.relay;

import io.gridway.core.config.ConfigException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a relay from a YAML file: {@code java io.gridway.relay.RelayMain relay.yaml} (a {@link RelayService}).
 * Prints the bound address on standard output ({@code gridway relay listening on http://127.0.0.1:PORT}) and
 * runs until SIGTERM/SIGINT, then shuts down gracefully. With a {@code cluster:} section it also prints the
 * endpoint it advertises ({@code gridway relay advertised as ...}).
 *
 * <p>Exit codes: 0 after a clean shutdown, 1 when the relay fails to start (or cannot reach its cluster), 2 for a
 * bad command line or configuration (the message names the file, line, key and reason).
 */
public final class RelayMain {
  private RelayMain() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 1 || args[0].startsWith("-")) {
      System.err.println("usage: RelayMain <relay.yaml>");
      System.exit(2);
    }
    RelayConfig config;
    try {
      config = RelayConfig.load(Path.of(args[0]));
    } catch (ConfigException e) {
      System.err.println("configuration error: " + e.getMessage());
      System.exit(2);
      return;
    }
    RelayService relay;
    try {
      relay = RelayService.create(config, Clock.systemUTC());
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      System.err.println("configuration error: " + e.getMessage());
      System.exit(2);
      return;
    } catch (IllegalStateException e) {
      System.err.println("relay failed to start: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    InetSocketAddress address;
    try {
      address = relay.start();
    } catch (RuntimeException e) {
      System.err.println("relay failed to start: " + e.getMessage());
      relay.close();
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      relay.close();
      stopped.countDown();
    }, "gridway-shutdown"));
    System.out.println("gridway relay listening on " + config.http().scheme() + "://" + address.getHostString() + ":" + address.getPort());
    if (config.cluster() != null) {
      System.out.println("gridway relay advertised as " + relay.endpoint() + " in cluster " + config.cluster().name());
    }
    System.out.flush();
    stopped.await();
  }
}
