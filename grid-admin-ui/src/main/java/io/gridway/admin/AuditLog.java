package io.gridway.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gridway.cluster.AuditTrail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every write through the admin service, one JSON line each in {@code <stateDir>/audit.log} (mode 0600): who, when,
 * what, on what, and the state before and after. Appended before the response is sent; a write that cannot be
 * audited fails. Never holds a password.
 *
 * <p>Each entry but a failed login is also appended to the grid's audit trail in ZooKeeper ({@link AuditTrail}), where
 * the CLI's resets ({@code gridway cluster group reset}) and every other admin service of the grid write theirs too;
 * {@link #recent} shows this service's file with the trail's entries written by others. A trail append that fails (ZooKeeper
 * gone between the change and its record) is a WARN, not a failed answer: the change is made and the file holds it.
 * Failed logins stay in the file only: they change nothing in the grid, and a flood of them would push the grid's
 * changes out of the bounded trail. Thread-safe.
 */
final class AuditLog {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOGIN_FAILED = "session.login-failed";

  /**
   * @param time ISO-8601 instant
   * @param user who did it
   * @param action e.g. {@code group.pause}
   * @param target e.g. {@code group orders partition 3}
   * @param before the state before, or {@code null} when it did not exist
   * @param after the state after, or {@code null} when deleted
   */
  record Entry(String time, String user, String action, String target, Object before, Object after) {}

  /** The grid's audit trail as this service reaches it ({@link Grid}: each call bounded by the ZooKeeper timeout). */
  interface Trail {
    void append(AuditTrail.Entry entry);

    List<AuditTrail.Entry> recent(int limit);
  }

  private final Path file;
  private final Clock clock;
  private final Trail trail;
  private final String by;

  /**
   * @param trail the grid's audit trail, or null for none
   * @param by how this service signs its trail entries ({@code admin <instance>})
   */
  AuditLog(Path stateDir, Clock clock, Trail trail, String by) {
    this.file = stateDir.resolve("audit.log");
    this.clock = clock;
    this.trail = trail;
    this.by = by;
    try {
      if (!Files.exists(file)) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create audit log " + file + ": " + e.getMessage(), e);
    }
  }

  void record(String user, String action, String target, Object before, Object after) {
    Entry entry = new Entry(clock.instant().toString(), user, action, target, before, after);
    synchronized (this) {
      try {
        Files.write(file, (JSON.writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot append to audit log " + file + ": " + e.getMessage(), e);
      }
    }
    LOG.info("audit: {} {} {}", user, action, target);
    if (trail != null && !action.equals(LOGIN_FAILED)) {
      try {
        trail.append(trailEntry(entry, by));
      } catch (RuntimeException e) {
        LOG.warn("audit entry {} {} {} is in {} but not in the grid's audit trail in ZooKeeper: {}", user, action, target, file,
            e.getMessage());
      }
    }
  }

  /** {@code entry} as the grid's audit trail keeps it: before and after as JSON text, signed {@code by}. */
  static AuditTrail.Entry trailEntry(Entry entry, String by) {
    return new AuditTrail.Entry(entry.time(), entry.user(), entry.action(), entry.target(), json(entry.before()),
        json(entry.after()), by);
  }

  private static String json(Object value) {
    try {
      return value == null ? null : JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write an audit entry's state as JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The newest {@code limit} entries, newest first: this service's file, and the grid trail's entries that other
   * processes wrote (each with {@code by}). Without ZooKeeper, the file's alone.
   */
  List<Object> recent(int limit) {
    List<JsonNode> entries = new ArrayList<>(fromFile(limit));
    if (trail != null) {
      try {
        for (AuditTrail.Entry e : trail.recent(limit)) {
          if (!by.equals(e.by())) {
            entries.add(fromTrail(e));
          }
        }
      } catch (RuntimeException e) {
        LOG.warn("the audit page shows this admin service's own entries only: the grid's audit trail cannot be read: {}",
            e.getMessage());
      }
    }
    // stable: entries of one instant keep the file's order
    entries.sort(Comparator.comparing((JsonNode e) -> Instant.parse(e.get("time").asText())).reversed());
    return new ArrayList<>(entries.subList(0, Math.min(limit, entries.size())));
  }

  private synchronized List<JsonNode> fromFile(int limit) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<JsonNode> out = new ArrayList<>();
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

  private static JsonNode fromTrail(AuditTrail.Entry e) {
    ObjectNode node = JSON.createObjectNode();
    node.put("time", e.time()).put("user", e.user()).put("action", e.action()).put("target", e.target());
    node.set("before", parsed(e.before()));
    node.set("after", parsed(e.after()));
    node.put("by", e.by());
    return node;
  }

  private static JsonNode parsed(String text) {
    try {
      return text == null ? JSON.nullNode() : JSON.readTree(text);
    } catch (IOException e) {
      return JSON.getNodeFactory().textNode(text); // written by another version: shown as it is
    }
  }
}
