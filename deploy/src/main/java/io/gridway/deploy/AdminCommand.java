package io.gridway.deploy;

import io.gridway.admin.AdminService;
import io.gridway.cluster.EmbeddedZooKeeperServer;
import io.gridway.cluster.ZkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gridway admin --config admin.yaml}: the admin service ({@link AdminService}) until SIGTERM/SIGINT. It hosts a
 * Helix controller, so it replaces {@code gridway controller} where a UI is wanted; {@code gridway controller} stays
 * for controllers without one, and both kinds join one election.
 */
@Command(name = "admin", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = {"Run the admin service: a Helix controller, the REST API under /api/v1 and the web UI.",
        "The first start creates user admin and writes its password to <stateDir>/initial-admin-password (mode 0600).",
        "Run two or more on different VMs: their controllers elect one leader, as gridway controller does."},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway admin --config /etc/gridway/admin.yaml",
        "  cat /var/lib/gridway/admin/initial-admin-password   # then open http://127.0.0.1:8480/"})
final class AdminCommand implements Callable<Integer> {
  @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The admin service's YAML file (see conf/admin.yaml).")
  Path config;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    AdminConfig admin = AdminConfig.load(config);
    ZkConfig zk = admin.zk().toZkConfig();
    EmbeddedZooKeeperServer server = zk.isEmbedded() ? EmbeddedZooKeeperServer.start(zk) : null;
    AdminService service;
    try {
      service = AdminService.start(admin.settings(server == null ? zk : server.clientConfig()), Clock.systemUTC(),
          admin.tls(), System.getenv());
    } catch (RuntimeException | InterruptedException e) {
      if (server != null) {
        server.close();
      }
      throw e;
    }
    Path secret = service.initialPasswordFile();
    spec.commandLine().getOut().println("gridway admin " + admin.name() + " on " + service.url() + " for cluster " + admin.cluster()
        + (server == null ? "" : " (embedded ZooKeeper on " + server.connectString() + ")")
        + (Files.exists(secret) ? "; first admin's password in " + secret : ""));
    Shutdown.closeOnSignalAndWait("gridway admin", () -> {
      try {
        service.close();
      } finally {
        if (server != null) {
          server.close();
        }
      }
    });
    return Gridway.OK;
  }
}
