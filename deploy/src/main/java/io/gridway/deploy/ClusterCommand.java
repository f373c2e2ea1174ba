package io.gridway.deploy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.ClusterStatusReader;
import io.gridway.cluster.ZkConfig;
import io.gridway.cluster.ZkTls;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code gridway cluster init|status|group}: set the Helix cluster up, show who holds what, operate consumer groups. */
@Command(name = "cluster", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = "Administer the cluster in ZooKeeper.",
    subcommands = {ClusterCommand.Init.class, ClusterCommand.Status.class, GroupCommand.class},
    synopsisSubcommandLabel = "(init | status | group)",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway cluster init --zk zk1:2181,zk2:2181,zk3:2181 --cluster gridway",
        "  gridway cluster status --config /etc/gridway/controller.yaml --json",
        "  gridway cluster group pause orders --config /etc/gridway/controller.yaml"})
final class ClusterCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required: init, status or group");
  }

  /** Where the cluster is: a controller config file, or --zk and --cluster. */
  static final class Target {
    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "A controller YAML file (its zk and cluster).")
    Path config;

    @Option(names = "--zk", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string (instead of --config).")
    String zk;

    @Option(names = "--cluster", paramLabel = "NAME", description = "The cluster name (with --zk).")
    String cluster;

    @Option(names = "--zk-ca-file", paramLabel = "FILE", description = "TLS to ZooKeeper (with --zk): PEM CA certificates.")
    Path zkCaFile;

    @Option(names = "--zk-key-store", paramLabel = "FILE",
        description = "TLS to ZooKeeper (with --zk-ca-file): PEM private key then certificate chain, the client certificate.")
    Path zkKeyStore;

    @Spec(Spec.Target.MIXEE) CommandSpec mixee;

    String clusterName() {
      return config != null ? ControllerConfig.load(config).cluster() : cluster;
    }

    ZkConfig zkConfig() {
      if (config != null && (zk != null || cluster != null)) {
        throw new ParameterException(mixee.commandLine(), "give either --config or --zk with --cluster, not both");
      }
      if (config != null) {
        try {
          return ControllerConfig.load(config).zk().clientConfig();
        } catch (IllegalArgumentException e) {
          throw new UsageException("configuration error: " + config + ": " + e.getMessage(), e);
        }
      }
      if (zk == null || cluster == null) {
        throw new ParameterException(mixee.commandLine(), "give --config FILE, or --zk HOST:PORT with --cluster NAME");
      }
      if (zkCaFile == null && zkKeyStore != null) {
        throw new ParameterException(mixee.commandLine(), "--zk-key-store needs --zk-ca-file");
      }
      try {
        return ZkConfig.external(zk).withTls(zkCaFile == null ? null : new ZkTls(zkCaFile, zkKeyStore).requireReadable("--zk-ca-file/--zk-key-store"));
      } catch (IllegalArgumentException e) {
        throw new UsageException("configuration error: " + e.getMessage(), e);
      }
    }
  }

  @Command(name = "init", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Create the cluster and its state models (idempotent; a controller does it on start too).",
      footerHeading = "%nExamples:%n", footer = {"  gridway cluster init --zk zk1:2181,zk2:2181,zk3:2181 --cluster gridway"})
  static final class Init implements Callable<Integer> {
    @Mixin Target target;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      ZkConfig zk = target.zkConfig();
      String cluster = target.clusterName();
      try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
        admin.init();
      }
      spec.commandLine().getOut().println("cluster " + cluster + " ready");
      return Gridway.OK;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Show the leading controller, the instances, and every relay resource and consumer group with its partitions.",
      footerHeading = "%nExamples:%n", footer = {"  gridway cluster status --config /etc/gridway/controller.yaml",
          "  gridway cluster status --zk 127.0.0.1:2181 --cluster gridway --json | jq .controller"})
  static final class Status implements Callable<Integer> {
    @Mixin Target target;

    @Option(names = "--json", description = "Print the status as JSON.")
    boolean json;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws JsonProcessingException {
      ZkConfig zk = target.zkConfig();
      ClusterStatus status;
      try (ClusterStatusReader reader = new ClusterStatusReader(zk, target.clusterName())) {
        status = reader.read();
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(status));
      } else {
        StatusTable.print(status, out);
      }
      return Gridway.OK;
    }
  }
}
