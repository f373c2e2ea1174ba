package io.gridway.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle of a native server process on one loopback port: first start on a free port
 * (retried if another process takes it first), then stop, start and kill on that same port, which
 * is what lets tests restart a server under a connected client. What the server is (its command
 * line, its readiness query) is the caller's business.
 *
 * <p>Thread-safe: lifecycle methods are synchronized, so a stop waits for a start in progress.
 */
final class NativeServer {
  private static final Logger LOG = LoggerFactory.getLogger(NativeServer.class);
  private static final int PORT_ATTEMPTS = 3;

  /** How a server is started and stopped. */
  record Spec(
      String name,
      IntFunction<List<String>> command,
      IntFunction<Poll.Probe> readiness,
      Termination.Signal stopSignal,
      Duration startTimeout,
      Duration stopGrace) {}

  private final Spec spec;
  private final InstanceLease lease;
  private final Path log;
  private int port = -1; // fixed by the first successful start
  private ServerProcess process; // null while stopped

  NativeServer(Spec spec, InstanceLease lease, Path log) {
    this.spec = spec;
    this.lease = lease;
    this.log = log;
  }

  /** Starts the server unless it runs; on its first start it picks the port. */
  synchronized void start() {
    if (process != null) {
      return;
    }
    long begin = System.nanoTime();
    if (port > 0) {
      try {
        startOn(port);
      } catch (PortTaken e) {
        throw new IllegalStateException(
            spec.name() + " cannot start again: another process took its port " + port,
            e.getCause());
      }
    } else {
      startOnFreePort();
    }
    LOG.info(
        "{} ready on 127.0.0.1:{} in {} ms (pid {}, log {})",
        spec.name(),
        port,
        (System.nanoTime() - begin) / 1_000_000,
        process.handle().pid(),
        log);
  }

  private void startOnFreePort() {
    for (int attempt = 1; ; attempt++) {
      int candidate = FreePort.pick();
      try {
        startOn(candidate);
        port = candidate;
        return;
      } catch (PortTaken e) {
        if (attempt == PORT_ATTEMPTS) {
          throw (IllegalStateException) e.getCause();
        }
        LOG.info(
            "{}: port {} was taken before it could bind; trying another", spec.name(), candidate);
      }
    }
  }

  private void startOn(int candidate) {
    ServerProcess started =
        ServerProcess.launch(spec.name(), spec.command().apply(candidate), lease.dir(), log);
    // recorded before waiting, so that a JVM dying now still leaves its server to the orphan reaper
    lease.serverRunning(started.handle());
    try {
      started.awaitReady(spec.startTimeout(), spec.readiness().apply(candidate));
    } catch (IllegalStateException e) {
      started.kill();
      lease.serverStopped();
      if (started.lostPortRace()) {
        throw new PortTaken(e);
      }
      throw e;
    }
    process = started;
  }

  /** Stops the server cleanly (SIGKILL after the grace period); its data and port are kept. */
  synchronized void stop() {
    if (process != null) {
      long begin = System.nanoTime();
      if (process.stopWith(spec.stopSignal(), spec.stopGrace())) {
        LOG.info("{} stopped in {} ms", spec.name(), (System.nanoTime() - begin) / 1_000_000);
      } else {
        LOG.warn("{} did not stop within {}; killed it", spec.name(), spec.stopGrace());
      }
      process = null;
      lease.serverStopped();
    }
  }

  /** SIGKILLs the server, as a crash would. */
  synchronized void kill() {
    if (process != null) {
      process.kill();
      process = null;
      lease.serverStopped();
    }
  }

  synchronized boolean isRunning() {
    return process != null && process.handle().isAlive();
  }

  synchronized int port() {
    if (port < 0) {
      throw new IllegalStateException(spec.name() + " has not started yet");
    }
    return port;
  }

  Path log() {
    return log;
  }

  /** Stops the server and deletes its directory. */
  synchronized void close() {
    stop();
    lease.release();
  }

  private static final class PortTaken extends RuntimeException {
    PortTaken(IllegalStateException cause) {
      super(cause);
    }
  }
}
