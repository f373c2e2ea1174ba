package io.gridway.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every write through the admin service, one JSON line each in {@code <stateDir>/audit.log} (mode 0600): who, when,
 * what, on what, and the state before and after. Appended before the response is sent; a write that cannot be
 * audited fails. Never holds a password. Thread-safe.
 */
final class AuditLog {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @param time ISO-8601 instant
   * @param user who did it
   * @param action e.g. {@code group.pause}
   * @param target e.g. {@code group orders partition 3}
   * @param before the state before, or {@code null} when it did not exist
   * @param after the state after, or {@code null} when deleted
   */
  record Entry(String time, String user, String action, String target, Object before, Object after) {}

  private final Path file;
  private final Clock clock;

  AuditLog(Path stateDir, Clock clock) {
    this.file = stateDir.resolve("audit.log");
    this.clock = clock;
    try {
      if (!Files.exists(file)) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create audit log " + file + ": " + e.getMessage(), e);
    }
  }

  synchronized void record(String user, String action, String target, Object before, Object after) {
    Entry entry = new Entry(clock.instant().toString(), user, action, target, before, after);
    try {
      Files.write(file, (JSON.writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to audit log " + file + ": " + e.getMessage(), e);
    }
    LOG.info("audit: {} {} {}", user, action, target);
  }

  /** The newest {@code limit} entries, newest first. */
  synchronized List<Object> recent(int limit) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<Object> out = new ArrayList<>();
      for (int i = lines.size() - 1; i >= 0 && out.size() < limit; i--) {
        if (!lines.get(i).isBlank()) {
          out.add(JSON.readTree(lines.get(i)));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read audit log " + file + ": " + e.getMessage(), e);
    }
  }
}
