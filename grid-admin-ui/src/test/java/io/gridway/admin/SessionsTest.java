package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionsTest {
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
  void sessionsSurviveARestartThroughAFileThatHoldsNoSessionId(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    MovableClock clock = new MovableClock();
    java.nio.file.Path file = dir.resolve(Sessions.FILE);
    Sessions before = new Sessions(clock, Duration.ofMinutes(10), file);
    Sessions.Session ann = before.open("ann", Role.OPERATOR);
    Sessions.Session bob = before.open("bob", Role.VIEWER);
    before.close(bob.id());
    String stored = java.nio.file.Files.readString(file);
    assertThat(stored).contains("ann").doesNotContain(ann.id()).doesNotContain("bob");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");

    clock.now = clock.now.plus(Duration.ofMinutes(5));
    Sessions after = new Sessions(clock, Duration.ofMinutes(10), file);
    assertThat(after.find(ann.id())).hasValueSatisfying(s -> {
      assertThat(s.user()).isEqualTo("ann");
      assertThat(s.role()).isEqualTo(Role.OPERATOR);
      assertThat(s.csrfToken()).isEqualTo(ann.csrfToken());
    });
    assertThat(after.find(bob.id())).isEmpty();
    // used 5 minutes in, which the file recorded: a later restart counts the idle time from then
    clock.now = clock.now.plus(Duration.ofMinutes(9));
    assertThat(new Sessions(clock, Duration.ofMinutes(10), file).find(ann.id())).isPresent();
    clock.now = clock.now.plus(Duration.ofMinutes(11));
    assertThat(new Sessions(clock, Duration.ofMinutes(10), file).find(ann.id())).as("expired while stopped").isEmpty();
  }

  @Test
  void anUnreadableFileStartsWithoutSessions(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve(Sessions.FILE), "not json");
    Sessions sessions = new Sessions(Clock.systemUTC(), Duration.ofMinutes(10), file);
    Sessions.Session s = sessions.open("ann", Role.VIEWER);
    assertThat(sessions.find(s.id())).isPresent();
    assertThat(java.nio.file.Files.readString(file)).contains("ann");
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
