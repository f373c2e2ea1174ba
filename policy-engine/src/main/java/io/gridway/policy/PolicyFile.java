package io.gridway.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One policy file kept current for hot reload: loaded when created (an error there is the caller's to
 * report, and should stop the process from starting), then reloaded by {@link #check()} when the file's
 * modification time, size or identity changed. A new version that loads replaces the one in force; one
 * that does not is rejected, its errors ({@code file:line:column: rule: reason}) kept in {@link
 * #lastError()}, and the old version stays. Polling rather than a {@code WatchService}: it sees edits
 * through symlinks (Kubernetes ConfigMaps) and costs one {@code stat} per check.
 *
 * <p>Callers read {@link #current()} once per unit of work (a window, a batch) so that a new version
 * applies from a boundary on, never to half of one. Thread-safe: {@link #check()} from one scheduler
 * thread, {@link #current()} and {@link #lastError()} from any.
 */
public final class PolicyFile {
  private final Path file;
  private final PolicyLoader loader;
  private volatile Policy current;
  private volatile String lastError;
  private String stamp;

  private PolicyFile(Path file, PolicyLoader loader, Policy current, String stamp) {
    this.file = file;
    this.loader = loader;
    this.current = current;
    this.stamp = stamp;
  }

  /** Loads the file now. */
  public static PolicyFile load(Path file, PolicyLoader loader) throws PolicyException {
    String stamp = stamp(file);
    return new PolicyFile(file, loader, loader.load(file), stamp);
  }

  public Path file() {
    return file;
  }

  /** The version in force. */
  public Policy current() {
    return current;
  }

  /** Why the newest content of the file was not taken, or null when the version in force is the newest. */
  public String lastError() {
    return lastError;
  }

  /**
   * Reloads when the file changed since the last check.
   *
   * @return the new policy when one was taken, null when the file did not change or its new content was rejected
   */
  public synchronized Policy check() {
    String now = stamp(file);
    if (now.equals(stamp)) {
      return null;
    }
    stamp = now;
    try {
      Policy next = loader.load(file);
      current = next;
      lastError = null;
      return next;
    } catch (PolicyException e) {
      lastError = e.errors().stream().map(PolicyError::toString).collect(Collectors.joining("; "));
      return null;
    }
  }

  private static String stamp(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return a.lastModifiedTime().toMillis() + "/" + a.size() + "/" + Objects.toString(a.fileKey());
    } catch (IOException e) {
      return "missing";
    }
  }
}
