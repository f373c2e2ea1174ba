package io.gridway.admin;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logged-in sessions, in memory (a restart logs everyone out). Each has an unguessable id (the cookie) and a CSRF
 * token the UI sends back in a header on every write; a session unused for {@code ttl} ends. Thread-safe.
 */
final class Sessions {
  private static final SecureRandom RANDOM = new SecureRandom();

  record Session(String id, String user, Role role, String csrfToken, Instant lastUsed) {}

  private final Map<String, Session> byId = new ConcurrentHashMap<>();
  private final Clock clock;
  private final Duration ttl;

  Sessions(Clock clock, Duration ttl) {
    this.clock = clock;
    this.ttl = ttl;
  }

  Session open(String user, Role role) {
    Session s = new Session(token(), user, role, token(), clock.instant());
    byId.put(s.id(), s);
    return s;
  }

  /** The live session with this id, its idle timer restarted; empty when unknown or expired. */
  Optional<Session> find(String id) {
    if (id == null) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    Session s = byId.computeIfPresent(id, (k, old) -> old.lastUsed().plus(ttl).isAfter(now)
        ? new Session(old.id(), old.user(), old.role(), old.csrfToken(), now) : null);
    return Optional.ofNullable(s);
  }

  void close(String id) {
    if (id != null) {
      byId.remove(id);
    }
  }

  static String token() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
