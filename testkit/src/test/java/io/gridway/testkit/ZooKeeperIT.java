package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ZooKeeperIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();

  @Test
  void aClientCreatesAndReadsAZnode() throws Exception {
    // not try-with-resources: ZooKeeper.close() throws InterruptedException, which -Xlint:try
    // rejects
    ZooKeeper client = connect(ZK.server().connectString());
    try {
      client.create(
          "/created-and-read",
          "hello".getBytes(),
          ZooDefs.Ids.OPEN_ACL_UNSAFE,
          CreateMode.PERSISTENT);
      assertThat(new String(client.getData("/created-and-read", false, null))).isEqualTo("hello");
    } finally {
      client.close();
    }
  }

  @Test
  void restartKeepsDataPortAndSessions() throws Exception {
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.dedicated()) {
      ZooKeeper client = connect(zk.connectString());
      try {
        int port = zk.port();
        client.create("/kept", "v1".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        long session = client.getSessionId();

        zk.restart();

        assertThat(zk.port()).isEqualTo(port);
        assertThat(new String(readAfterReconnect(client, "/kept"))).isEqualTo("v1");
        assertThat(client.getSessionId()).isEqualTo(session);
      } finally {
        client.close();
      }
    }
  }

  static ZooKeeper connect(String connectString) throws IOException, InterruptedException {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper client =
        new ZooKeeper(
            connectString,
            10_000,
            event -> {
              if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    assertThat(connected.await(10, TimeUnit.SECONDS)).as("connected to " + connectString).isTrue();
    return client;
  }

  // the client reconnects by itself; until it has, requests fail with ConnectionLoss
  private static byte[] readAfterReconnect(ZooKeeper client, String path) {
    return await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptionsInstanceOf(KeeperException.ConnectionLossException.class)
        .until(() -> client.getData(path, false, null), Objects::nonNull);
  }
}
