package io.gridway.deploy;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.EmbeddedZooKeeperServer;
import io.gridway.cluster.ZkConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gridway controller --config controller.yaml}: a Helix controller ({@link ControllerHost}) until
 * SIGTERM/SIGINT; with {@code zk.embedded} it first starts an in-process ZooKeeper.
 */
@Command(name = "controller", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = {"Run a Helix controller for the cluster (sets the cluster up on first start).",
        "Run two or more on different VMs: one leads, the others take over when it goes."},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway controller --config /etc/gridway/controller.yaml",
        "  gridway cluster status --config /etc/gridway/controller.yaml   # who leads"})
final class ControllerCommand implements Callable<Integer> {
  @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The controller's YAML file (see conf/controller.yaml).")
  Path config;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    ControllerConfig controller = ControllerConfig.load(config);
    ZkConfig zk = controller.zk().toZkConfig();
    EmbeddedZooKeeperServer server = zk.isEmbedded() ? EmbeddedZooKeeperServer.start(zk) : null;
    ControllerHost host;
    try {
      host = ControllerHost.start(server == null ? zk : server.clientConfig(), controller.cluster(), controller.name());
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      throw e;
    }
    spec.commandLine().getOut().println("gridway controller " + controller.name() + " joined cluster " + controller.cluster()
        + (server == null ? "" : " (embedded ZooKeeper on " + server.connectString() + ")"));
    Shutdown.closeOnSignalAndWait("gridway controller", () -> {
      try {
        host.close();
      } finally {
        if (server != null) {
          server.close();
        }
      }
    });
    return Gridway.OK;
  }
}
