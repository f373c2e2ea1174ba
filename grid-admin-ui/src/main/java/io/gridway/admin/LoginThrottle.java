package io.gridway.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Slows down password guessing: failed logins are counted per user name and per client address. A user name may fail
 * {@link #FREE_PER_USER} times in a row, an address {@link #FREE_PER_CLIENT} times (several people may share one, behind
 * a proxy), without delay; after that each further failure locks the name (or the address) for twice as long as the
 * one before — 1 s, 2 s, 4 s … at most {@link #MAX_LOCK} — and every attempt while it is locked is refused before the
 * password is even looked at, so a locked name cannot be guessed at all. A successful login clears its name and its
 * address. Counts of a name or an address without a failure for {@link #FORGET_AFTER} are dropped, and at most {@link
 * #MAX_KEYS} are kept (the oldest go first), so random names cannot fill the memory.
 *
 * <p>The price: someone who knows a user name can keep that user locked out of the UI (never for more than {@link
 * #MAX_LOCK} after their last attempt); the {@code gridway cluster} commands need no login and keep working.
 *
 * <p>Thread-safe (synchronized: logins are rare).
 */
final class LoginThrottle {
  static final int FREE_PER_USER = 5;
  static final int FREE_PER_CLIENT = 20;
  static final Duration MAX_LOCK = Duration.ofMinutes(15);
  static final Duration FORGET_AFTER = Duration.ofHours(1);
  static final int MAX_KEYS = 10_000;

  private record Failures(int count, Instant last, Instant lockedUntil) {}

  /** "u:" + user name or "c:" + client address → its failures; insertion order is the order of last failure. */
  private final Map<String, Failures> failures = new java.util.LinkedHashMap<>();
  private final Clock clock;

  LoginThrottle(Clock clock) {
    this.clock = clock;
  }

  /** How long {@code user} or {@code client} is still locked (the longer of the two); zero when a login may be tried. */
  synchronized Duration wait(String user, String client) {
    Instant now = clock.instant();
    Duration wait = Duration.ZERO;
    for (String key : new String[] {userKey(user), clientKey(client)}) {
      Failures f = failures.get(key);
      if (f != null && f.lockedUntil().isAfter(now)) {
        Duration left = Duration.between(now, f.lockedUntil());
        wait = left.compareTo(wait) > 0 ? left : wait;
      }
    }
    return wait;
  }

  /** A wrong password (or unknown name) for {@code user} from {@code client}; returns how long both are locked now. */
  synchronized Duration failed(String user, String client) {
    Instant now = clock.instant();
    forgetOld(now);
    count(userKey(user), FREE_PER_USER, now);
    count(clientKey(client), FREE_PER_CLIENT, now);
    return wait(user, client);
  }

  /** {@code user} logged in from {@code client}: both start afresh. */
  synchronized void succeeded(String user, String client) {
    failures.remove(userKey(user));
    failures.remove(clientKey(client));
  }

  private void count(String key, int free, Instant now) {
    Failures before = failures.remove(key); // re-inserted last: the map stays ordered by last failure
    int count = before == null ? 1 : before.count() + 1;
    Instant lockedUntil = now;
    if (count > free) {
      int doublings = Math.min(count - free - 1, 20);
      Duration lock = Duration.ofSeconds(1L << doublings);
      lockedUntil = now.plus(lock.compareTo(MAX_LOCK) > 0 ? MAX_LOCK : lock);
    }
    failures.put(key, new Failures(count, now, lockedUntil));
  }

  private void forgetOld(Instant now) {
    var it = failures.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Failures> e = it.next();
      boolean stale = !e.getValue().last().plus(FORGET_AFTER).isAfter(now);
      if (!stale && failures.size() < MAX_KEYS) {
        break; // ordered by last failure: the rest are newer
      }
      it.remove();
    }
  }

  private static String userKey(String user) {
    return "u:" + (user.length() > 200 ? user.substring(0, 200) : user);
  }

  private static String clientKey(String client) {
    return "c:" + client;
  }

  /** For tests: how many names and addresses are counted. */
  synchronized int size() {
    return failures.size();
  }
}
