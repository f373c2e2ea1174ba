package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SessionsTest {
  /** A clock the test moves. */
  static final class MovableClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void aSessionEndsAfterItsIdleTimeAndActivityExtendsIt() {
    MovableClock clock = new MovableClock();
    Sessions sessions = new Sessions(clock, Duration.ofMinutes(10));
    Sessions.Session s = sessions.open("ann", Role.OPERATOR);
    assertThat(s.id()).isNotEqualTo(s.csrfToken()).hasSizeGreaterThanOrEqualTo(43);
    clock.now = clock.now.plus(Duration.ofMinutes(9));
    assertThat(sessions.find(s.id())).isPresent(); // used: the ten minutes start again
    clock.now = clock.now.plus(Duration.ofMinutes(9));
    assertThat(sessions.find(s.id())).map(Sessions.Session::role).contains(Role.OPERATOR);
    clock.now = clock.now.plus(Duration.ofMinutes(10));
    assertThat(sessions.find(s.id())).isEmpty();
    assertThat(sessions.find(null)).isEmpty();
  }

  @Test
  void closingEndsTheSession() {
    Sessions sessions = new Sessions(Clock.systemUTC(), Duration.ofHours(1));
    Sessions.Session s = sessions.open("ann", Role.VIEWER);
    sessions.close(s.id());
    assertThat(sessions.find(s.id())).isEmpty();
  }

  @Test
  void rolesIncludeTheLowerOnes() {
    assertThat(Role.ADMIN.allows(Role.OPERATOR)).isTrue();
    assertThat(Role.OPERATOR.allows(Role.VIEWER)).isTrue();
    assertThat(Role.VIEWER.allows(Role.OPERATOR)).isFalse();
    assertThat(Role.parse("operator")).isEqualTo(Role.OPERATOR);
    assertThat(Role.parse("OPERATOR")).isNull();
  }
}
