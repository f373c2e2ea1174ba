package io.gridway.deploy;

import java.util.concurrent.CountDownLatch;

/**
 * Runs a started service until SIGTERM/SIGINT: a shutdown hook closes it, then the waiting thread returns.
 * The JVM's own exit status after a signal is 128+signal (143 for SIGTERM); the systemd units list it as
 * success.
 */
final class Shutdown {
  private Shutdown() {}

  /** Blocks until the JVM shuts down and {@code service} is closed. */
  static void closeOnSignalAndWait(String name, AutoCloseable service) throws InterruptedException {
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        service.close();
      } catch (Exception e) {
        System.err.println(name + ": error while stopping: " + e.getMessage());
      } finally {
        closed.countDown();
      }
    }, "gridway-shutdown"));
    closed.await();
  }
}
