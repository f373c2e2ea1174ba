package io.gridway.testkit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/**
 * Everything this JVM logs while it is open, with Gridway's own loggers at DEBUG — what an operator debugging a problem
 * would see — for tests that look for what must never be shown (passwords, tokens, key material). Closing it restores
 * the level and detaches it. Not thread-safe to open twice at once.
 */
public final class GridwayLogs implements AutoCloseable {
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final Logger gridway = (Logger) LoggerFactory.getLogger("io.gridway");
  private final Level level = gridway.getLevel();
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

  private GridwayLogs() {
    lines.start();
    root.addAppender(lines);
    gridway.setLevel(Level.DEBUG);
  }

  /** Starts capturing. */
  public static GridwayLogs atDebug() {
    return new GridwayLogs();
  }

  /** How many lines were logged so far. */
  public int lineCount() {
    return lines.list.size();
  }

  /** Every line's message and its exception's message, one per line. */
  public String text() {
    StringBuilder text = new StringBuilder();
    for (ILoggingEvent line : lines.list) {
      text.append(line.getFormattedMessage()).append('\n');
      if (line.getThrowableProxy() != null) {
        text.append(line.getThrowableProxy().getMessage()).append('\n');
      }
    }
    return text.toString();
  }

  @Override
  public void close() {
    root.detachAppender(lines);
    gridway.setLevel(level);
  }
}
