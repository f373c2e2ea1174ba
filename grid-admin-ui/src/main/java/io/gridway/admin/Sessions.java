package io.gridway.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logged-in sessions. Each has an unguessable id (the cookie) and a CSRF token the UI sends back in a header on every
 * write; a session unused for {@code ttl} ends.
 *
 * <p>With a file ({@code <stateDir>/sessions.json}, mode 0600) sessions survive a restart of the admin service: the
 * file holds each session's user, role, CSRF token and last use, and the SHA-256 of its id, never the id itself, so
 * reading the file does not give anyone a cookie to log in with. It is rewritten when a session opens or closes, and
 * when one is used at least {@link #TOUCH} after the time the file last recorded (so a restart may end a session up to
 * that much early, never late). A file that cannot be written keeps the sessions in memory, logged once; one that
 * cannot be read starts with none (everyone logs in again), logged.
 *
 * <p>Thread-safe.
 */
final class Sessions {
  static final String FILE = "sessions.json";
  static final Duration TOUCH = Duration.ofMinutes(1);
  private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A session; {@code id} is the cookie (only known to the instance that opened it, or from the cookie presented). */
  record Session(String id, String user, Role role, String csrfToken, Instant lastUsed) {}

  /** One line of the file: a session without its id. */
  record Stored(String idHash, String user, String role, String csrfToken, long lastUsedMillis) {}

  /** SHA-256 of the id → the session. */
  private final Map<String, Session> byHash = new ConcurrentHashMap<>();
  private final Clock clock;
  private final Duration ttl;
  private final Path file;
  private boolean writeFailed; // guarded by this

  /** In memory only: a restart logs everyone out. */
  Sessions(Clock clock, Duration ttl) {
    this(clock, ttl, null);
  }

  /** Kept in {@code file} as well (null: in memory only); the live sessions in it are restored now. */
  Sessions(Clock clock, Duration ttl, Path file) {
    this.clock = clock;
    this.ttl = ttl;
    this.file = file;
    if (file != null) {
      restore();
    }
  }

  Session open(String user, Role role) {
    Session s = new Session(token(), user, role, token(), clock.instant());
    byHash.put(hash(s.id()), s);
    persist();
    return s;
  }

  /** The live session with this id, its idle timer restarted; empty when unknown or expired. */
  Optional<Session> find(String id) {
    if (id == null) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    boolean[] write = new boolean[1];
    Session s = byHash.computeIfPresent(hash(id), (k, old) -> {
      if (!old.lastUsed().plus(ttl).isAfter(now)) {
        write[0] = true;
        return null;
      }
      // the file keeps the last use to TOUCH's precision: not a write per request
      write[0] = !old.lastUsed().plus(TOUCH).isAfter(now);
      return new Session(id, old.user(), old.role(), old.csrfToken(), write[0] ? now : old.lastUsed());
    });
    if (write[0]) {
      persist();
    }
    return Optional.ofNullable(s);
  }

  void close(String id) {
    if (id != null && byHash.remove(hash(id)) != null) {
      persist();
    }
  }

  private synchronized void persist() {
    if (file == null) {
      return;
    }
    Instant now = clock.instant();
    List<Stored> live = new ArrayList<>();
    byHash.forEach((h, s) -> {
      if (s.lastUsed().plus(ttl).isAfter(now)) {
        live.add(new Stored(h, s.user(), s.role().wireName(), s.csrfToken(), s.lastUsed().toEpochMilli()));
      }
    });
    try {
      Path tmp = file.resolveSibling(FILE + ".tmp");
      Files.deleteIfExists(tmp);
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.write(tmp, JSON.writeValueAsBytes(live));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      if (writeFailed) {
        LOG.info("writing {} again: sessions survive a restart", file);
        writeFailed = false;
      }
    } catch (IOException e) {
      if (!writeFailed) {
        LOG.warn("cannot write {} ({}): sessions are kept in memory only, a restart logs everyone out", file, e.getMessage());
        writeFailed = true;
      }
    }
  }

  private void restore() {
    if (!Files.exists(file)) {
      return;
    }
    Instant now = clock.instant();
    try {
      List<Stored> stored = JSON.readValue(Files.readString(file, StandardCharsets.UTF_8), new TypeReference<List<Stored>>() {});
      for (Stored s : stored) {
        Role role = Role.parse(s.role());
        Instant lastUsed = Instant.ofEpochMilli(s.lastUsedMillis());
        if (role != null && s.idHash() != null && s.user() != null && lastUsed.plus(ttl).isAfter(now)) {
          byHash.put(s.idHash(), new Session(null, s.user(), role, s.csrfToken(), lastUsed));
        }
      }
      LOG.info("restored {} session(s) from {}", byHash.size(), file);
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot read {} ({}): starting without sessions, everyone logs in again", file, e.getMessage());
    }
  }

  private static String hash(String id) {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(
          MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  static String token() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
