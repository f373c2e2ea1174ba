package io.gridway.consumer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The ZooKeeper reachability check: which servers a connect string names, and what a refusal says. */
class ZooKeeperPreflightTest {
  @Test
  void aConnectStringNamesEachServerWithItsPortOrZooKeepersDefaultAndDropsTheChroot() {
    assertThat(ZooKeeperPreflight.servers("zk1:2181, zk2 ,10.0.0.3:2182/gridway", "cluster.zk"))
        .extracting(InetSocketAddress::getHostString, InetSocketAddress::getPort)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("zk1", 2181), org.assertj.core.groups.Tuple.tuple("zk2", 2181),
            org.assertj.core.groups.Tuple.tuple("10.0.0.3", 2182));
  }

  @Test
  void aPortThatIsNotANumberIsASettingToChange() {
    assertThatThrownBy(() -> ZooKeeperPreflight.servers("zk1:21a81", "cluster.zk"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster.zk: 'zk1:21a81'");
  }

  @Test
  void aServerThatAcceptsPassesAndOneThatRefusesIsNamedWithTheKey() throws Exception {
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int refused;
      try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        refused = closed.getLocalPort();
      }
      String connect = "127.0.0.1:" + refused + ",127.0.0.1:" + listening.getLocalPort();
      ZooKeeperPreflight.check(connect, "cluster.zk", Duration.ofSeconds(1)); // one of the ensemble is enough
      assertThatThrownBy(() -> ZooKeeperPreflight.check("127.0.0.1:" + refused, "cluster.zk", Duration.ofSeconds(1)))
          .isInstanceOf(PeerUnavailableException.class)
          .hasMessageStartingWith("ZooKeeper 127.0.0.1:" + refused + " (cluster.zk) is not reachable: 127.0.0.1:" + refused
              + " (ConnectException");
    }
  }
}
