package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
  private final MovableClock clock = new MovableClock();
  private final LoginThrottle throttle = new LoginThrottle(clock);

  @Test
  void aUserNameIsLockedAfterFiveFailuresForTwiceAsLongEachTime() {
    for (int i = 0; i < LoginThrottle.FREE_PER_USER; i++) {
      assertThat(throttle.failed("alice", "10.0.0." + i)).isZero();
    }
    assertThat(throttle.failed("alice", "10.0.0.9")).isEqualTo(Duration.ofSeconds(1));
    assertThat(throttle.wait("alice", "10.0.0.77")).as("the name, from any address").isEqualTo(Duration.ofSeconds(1));
    assertThat(throttle.wait("bob", "10.0.0.9")).as("another name from that address").isZero();
    clock.now = clock.now.plusSeconds(1);
    assertThat(throttle.wait("alice", "10.0.0.9")).isZero();
    assertThat(throttle.failed("alice", "10.0.0.9")).isEqualTo(Duration.ofSeconds(2));
    clock.now = clock.now.plusMillis(500);
    assertThat(throttle.wait("alice", "10.0.0.1")).isEqualTo(Duration.ofMillis(1500));
    clock.now = clock.now.plusSeconds(2);
    assertThat(throttle.failed("alice", "10.0.0.9")).isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void theLockNeverExceedsFifteenMinutes() {
    Duration last = Duration.ZERO;
    for (int i = 0; i < 40; i++) {
      last = throttle.failed("alice", "10.0.0." + i);
      clock.now = clock.now.plus(last);
    }
    assertThat(last).isEqualTo(LoginThrottle.MAX_LOCK);
  }

  @Test
  void anAddressTryingManyNamesIsLockedAfterTwentyFailures() {
    for (int i = 0; i < LoginThrottle.FREE_PER_CLIENT; i++) {
      assertThat(throttle.failed("user" + i, "10.0.0.1")).isZero();
    }
    assertThat(throttle.failed("user99", "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
    assertThat(throttle.wait("someone", "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
    assertThat(throttle.wait("someone", "10.0.0.2")).isZero();
  }

  @Test
  void aSuccessClearsTheNameAndTheAddress() {
    for (int i = 0; i <= LoginThrottle.FREE_PER_USER; i++) {
      throttle.failed("alice", "10.0.0.1");
    }
    clock.now = clock.now.plusSeconds(1);
    throttle.succeeded("alice", "10.0.0.1");
    for (int i = 0; i < LoginThrottle.FREE_PER_USER; i++) {
      assertThat(throttle.failed("alice", "10.0.0.1")).isZero();
    }
  }

  @Test
  void countsWithoutAFailureForAnHourAreForgottenAndTheMapIsBounded() {
    throttle.failed("alice", "10.0.0.1");
    clock.now = clock.now.plus(LoginThrottle.FORGET_AFTER);
    throttle.failed("bob", "10.0.0.2");
    assertThat(throttle.size()).as("alice and 10.0.0.1 forgotten").isEqualTo(2);
    for (int i = 0; i < LoginThrottle.MAX_KEYS; i++) {
      throttle.failed("name" + i, "10.0.0.2");
    }
    assertThat(throttle.size()).isLessThanOrEqualTo(LoginThrottle.MAX_KEYS);
  }
}
