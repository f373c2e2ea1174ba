package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process in the namespace connects to a listener on its host address; partitioned it cannot, healed it can again;
 * closed, the namespace and the veth pair are gone, and a leftover of the same name is replaced, not refused.
 */
@Timeout(120)
class NetworkNamespaceIT {
  @Test
  void partitionCutsTheNamespaceOffAndHealRestoresIt() throws Exception {
    NetworkNamespace leftover = NetworkNamespace.create("gwnstest", 250);
    try (NetworkNamespace ns = NetworkNamespace.create("gwnstest", 250); // replaces the leftover
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName(ns.hostAddress()))) {
      assertThat(leftover.name()).isEqualTo(ns.name());
      assertThat(connects(ns, listener.getLocalPort())).as("connects before the partition").isTrue();
      ns.partition();
      assertThat(connects(ns, listener.getLocalPort())).as("connects while partitioned").isFalse();
      ns.heal();
      assertThat(connects(ns, listener.getLocalPort())).as("connects after the heal").isTrue();
    }
    assertThat(run(List.of("ip", "netns", "list"))).doesNotContain("gwnstest");
    assertThat(run(List.of("ip", "link", "show"))).doesNotContain("gwnstesth");
  }

  /** Whether a bash in the namespace can open a TCP connection to the host address (3 s at most). */
  private static boolean connects(NetworkNamespace ns, int port) throws Exception {
    Process p = new ProcessBuilder(ns.command(List.of("timeout", "3", "bash", "-c",
        "exec 3<>/dev/tcp/" + ns.hostAddress() + "/" + port))).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return p.exitValue() == 0;
  }

  private static String run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(10, TimeUnit.SECONDS);
    return out;
  }
}
