package io.gridway.consumer.cluster;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.ZkConfig;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A Helix controller in a JVM of its own, as {@code gridway controller} runs it (the deploy module, which
 * depends on this one, cannot be used here): {@code ControllerProcessMain ZK CLUSTER NAME SESSION_MILLIS}.
 * Prints {@code controller NAME started}; runs until killed or SIGTERM.
 */
public final class ControllerProcessMain {
  private ControllerProcessMain() {}

  public static void main(String[] args) throws InterruptedException {
    ZkConfig zk = ZkConfig.external(args[0]).withSessionTimeout(Duration.ofMillis(Long.parseLong(args[3])));
    ControllerHost host = ControllerHost.start(zk, args[1], args[2]);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      host.close();
      stopped.countDown();
    }, "controller-shutdown"));
    System.out.println("controller " + args[2] + " started");
    System.out.flush();
    stopped.await();
  }
}
