package io.gridway.admin;

import static org.awaitility.Awaitility.await;

import io.gridway.testkit.EmbeddedZooKeeper;
import io.gridway.testkit.ZooKeeperExtension;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link TestGrid} on the shared ZooKeeper for every test class of the JVM that registers this (starting Helix,
 * two participants and the admin service costs about ten seconds), closed when the test run ends. Tests that change it
 * (pause a partition, add a group) put it back or use names of their own.
 */
final class SharedGrid implements BeforeAllCallback {
  private static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
  private TestGrid grid;

  @Override
  public void beforeAll(ExtensionContext context) {
    // The root store closes its values in reverse order of insertion: the shared ZooKeeper's entry must go in before the
    // grid's, so that the grid is closed while ZooKeeper still answers. The other way round (a later class registering
    // the shared ZooKeeper first), every Helix and ZooKeeper client of the grid waited out its session against a stopped
    // server: about a minute of the module's build after its last test.
    ZK.beforeAll(context);
    // Awaitility waits 100 ms before its first check by default: the grid's tests wait on conditions about fifty times,
    // most of them already true. Checks then come every 50 ms: many conditions read the admin API (a ZooKeeper read
    // each), and polling them every 20 ms cost more CPU than it saved on a loaded machine.
    Awaitility.setDefaultPollDelay(Duration.ZERO);
    Awaitility.setDefaultPollInterval(Duration.ofMillis(50));
    ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(SharedGrid.class));
    Holder holder = store.getOrComputeIfAbsent("grid", k -> new Holder(), Holder.class);
    grid = holder.grid;
    await().atMost(Duration.ofSeconds(60)).until(() -> grid.leaders.size() == 4);
  }

  TestGrid grid() {
    return grid;
  }

  /** Closed by JUnit after the last test of the run (the root store closes AutoCloseable values). */
  private static final class Holder implements AutoCloseable {
    final TestGrid grid;

    Holder() {
      try {
        // 15 s, not the default 5 s: on a loaded CI machine a Helix write (a group's delete) can take longer than 5 s, and
        // AdminZooKeeperOutageIT, not these tests, is where the 503 on a slow ZooKeeper is tested
        grid = new TestGrid(EmbeddedZooKeeper.shared().connectString(), Duration.ofSeconds(15));
      } catch (Exception e) {
        throw new IllegalStateException("cannot start the test grid", e);
      }
    }

    @Override
    public void close() {
      grid.close();
    }
  }
}
