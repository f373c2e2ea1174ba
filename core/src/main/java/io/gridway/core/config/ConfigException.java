package io.gridway.core.config;

/**
 * A configuration that cannot be used. The message is one paragraph for an operator: where (file,
 * line, column), which key, and why — never a stack trace's worth of Jackson internals.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String origin;
  private final int line;
  private final String key;
  private final String reason;

  public ConfigException(String origin, int line, int column, String key, String reason) {
    super(format(origin, line, column, key, reason));
    this.origin = origin;
    this.line = line;
    this.key = key;
    this.reason = reason;
  }

  private static String format(String origin, int line, int column, String key, String reason) {
    StringBuilder text = new StringBuilder(origin);
    if (line > 0) {
      text.append(':').append(line);
      if (column > 0) {
        text.append(':').append(column);
      }
    }
    text.append(": ");
    if (key != null && !key.isEmpty()) {
      text.append(key).append(": ");
    }
    return text.append(reason).toString();
  }

  /** The file (or other origin) the configuration came from. */
  public String origin() {
    return origin;
  }

  /** The 1-based line of the offending value, or 0 when unknown. */
  public int line() {
    return line;
  }

  /** The dotted path of the offending key (for example {@code buffer.capacity}), or "" for the whole document. */
  public String key() {
    return key;
  }

  public String reason() {
    return reason;
  }
}
