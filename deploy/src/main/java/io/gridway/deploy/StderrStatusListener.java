package io.gridway.deploy;

import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.spi.LifeCycle;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import java.io.PrintStream;

/**
 * Logback's own status messages (its configuration could not be read, an appender failed) on standard
 * error, warnings and errors only. Without a listener logback prints them on standard output, which broke
 * the JSON of {@code gridway cluster status}; with logback's {@code OnErrorConsoleStatusListener} every start
 * would print some fifteen INFO lines to the journal. {@code bin/gridway} installs it with {@code
 * -Dlogback.statusListenerClass}; {@link Gridway#main} does too when that property is unset.
 *
 * <p>Thread-safe: logback calls {@link #addStatusEvent} from any thread; each message is one {@code println}.
 */
public final class StderrStatusListener extends ContextAwareBase implements StatusListener, LifeCycle {
  /** The system property logback reads at initialisation. */
  static final String PROPERTY = "logback.statusListenerClass";

  private volatile boolean started;

  /** Installs this listener for logback's initialisation unless one was chosen already. */
  static void installUnlessSet() {
    if (System.getProperty(PROPERTY) == null) {
      System.setProperty(PROPERTY, StderrStatusListener.class.getName());
    }
  }

  @Override
  public void addStatusEvent(Status status) {
    if (status.getEffectiveLevel() < Status.WARN) {
      return;
    }
    print(System.err, status);
  }

  static void print(PrintStream err, Status status) {
    StringBuilder line = new StringBuilder("logback ").append(status.getLevel() == Status.ERROR ? "ERROR" : "WARN").append(": ")
        .append(status.getMessage());
    for (Throwable cause = status.getThrowable(); cause != null; cause = cause.getCause()) {
      line.append(": ").append(cause);
    }
    err.println(line);
  }

  @Override
  public boolean isResetResistant() {
    return true;
  }

  @Override
  public void start() {
    started = true;
  }

  @Override
  public void stop() {
    started = false;
  }

  @Override
  public boolean isStarted() {
    return started;
  }
}
