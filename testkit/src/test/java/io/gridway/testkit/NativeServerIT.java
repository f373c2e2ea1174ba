package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NativeServerIT {
  private final InstanceLease lease = InstanceLease.acquire("native-server-test");
  private NativeServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    } else {
      lease.release();
    }
  }

  @Test
  void aServerThatDiesAtStartFailsAtOnceWithTheTailOfItsLog() {
    server =
        server(
            port -> List.of("sh", "-c", "echo 'unknown option --frobnicate'; exit 7"),
            port -> () -> false);

    long begin = System.nanoTime();
    assertThatThrownBy(server::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with code 7")
        .hasMessageContaining("unknown option --frobnicate");
    assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aPortTakenBeforeTheServerBindsItIsReplacedByAnother() {
    AtomicInteger launches = new AtomicInteger();
    int[] lastPort = new int[1];
    server =
        server(
            port -> {
              lastPort[0] = port;
              return launches.incrementAndGet() == 1
                  ? List.of("sh", "-c", "echo 'bind: Address already in use'; exit 1")
                  : List.of("sleep", "600");
            },
            port -> () -> launches.get() >= 2);

    server.start();

    assertThat(launches).hasValue(2);
    assertThat(server.port()).isEqualTo(lastPort[0]);
    assertThat(server.isRunning()).isTrue();
  }

  private NativeServer server(
      IntFunction<List<String>> command, IntFunction<Poll.Probe> readiness) {
    return new NativeServer(
        new NativeServer.Spec(
            "test server",
            command,
            readiness,
            Termination.Signal.TERM,
            Duration.ofSeconds(10),
            Duration.ofSeconds(5)),
        lease,
        lease.dir().resolve("server.log"));
  }
}
