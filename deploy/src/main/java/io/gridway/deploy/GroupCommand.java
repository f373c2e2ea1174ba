package io.gridway.deploy;

import io.gridway.admin.AdminSettings;
import io.gridway.admin.CheckpointResetTool;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.admin.ResetPlan;
import io.gridway.admin.ResetTarget;
import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.GroupSpec;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gridway cluster group create|delete|pause|resume|reset}: consumer groups as Helix resources, through
 * {@link ClusterAdmin} (the admin UI uses the same calls); {@code reset} through the admin module's
 * {@link CheckpointResetTool}, the planner behind the admin API's reset, so both plan and record a reset one way. Each
 * subcommand is one short ZooKeeper session.
 */
@Command(name = "group", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = "Create, delete, pause, resume a consumer group, or reset a partition's checkpoint.",
    subcommands = {GroupCommand.Create.class, GroupCommand.Delete.class, GroupCommand.Pause.class, GroupCommand.Resume.class,
        GroupCommand.Reset.class},
    synopsisSubcommandLabel = "(create | delete | pause | resume | reset)",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway cluster group create --policy conf/policy.yaml --config /etc/gridway/controller.yaml",
        "  gridway cluster group pause shop-fetch --zk 127.0.0.1:2181 --cluster gridway",
        "  gridway cluster group reset shop-fetch --partition 3 --time 2026-11-26T08:15:00Z --dry-run --zk 127.0.0.1:2181 --cluster gridway"})
final class GroupCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required: create, delete, pause, resume or reset");
  }

  /** Runs {@code action} with an admin of the target cluster; a refused action is exit code 2 with its reason. */
  static void withAdmin(ClusterCommand.Target target, Consumer<ClusterAdmin> action) {
    try (ClusterAdmin admin = new ClusterAdmin(target.zkConfig(), target.clusterName())) {
      action.accept(admin);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UsageException(e.getMessage(), e);
    }
  }

  /** Pauses or resumes a group, or one partition of it, and audits it as the admin service does. */
  static void setPaused(ClusterCommand.Target target, String group, Integer partition, boolean pause) {
    boolean[] before = {false};
    withAdmin(target, admin -> {
      if (partition == null) {
        before[0] = admin.isPaused(group);
        if (pause) {
          admin.pauseGroup(group);
        } else {
          admin.resumeGroup(group);
        }
      } else {
        before[0] = admin.pausedPartitions(group).contains(partition);
        if (pause) {
          admin.pausePartition(group, partition);
        } else {
          admin.resumePartition(group, partition);
        }
      }
    });
    String what = partition == null ? "group" : "partition";
    CliAudit.record(target.zkConfig(), target.clusterName(), what + (pause ? ".pause" : ".resume"),
        "group " + group + (partition == null ? "" : " partition " + partition), CliAudit.paused(before[0]),
        CliAudit.paused(pause));
  }

  @Command(name = "create", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = {"Create the consumer group of a policy: named after the policy (or --name), with as many partitions "
          + "as the policy's partition rules use. Idempotent; on an existing group it updates the replicas."},
      footerHeading = "%nExamples:%n",
      footer = {"  gridway cluster group create --policy conf/policy.yaml --config /etc/gridway/controller.yaml",
          "  gridway cluster group create --policy orders.yaml --name orders-dw --replicas 3 --zk 127.0.0.1:2181 --cluster gridway"})
  static final class Create implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;

    @Option(names = "--policy", required = true, paramLabel = "FILE", description = "The policy the group subscribes to.")
    Path policy;

    @Option(names = "--name", paramLabel = "GROUP", description = "The group's name (default: the policy's name).")
    String name;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "2",
        description = "Leader plus warm standbys per partition (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      Policy loaded;
      try {
        loaded = PolicyLoader.create().load(policy);
      } catch (PolicyException e) {
        throw new UsageException("policy " + policy + ": " + e.getMessage(), e);
      }
      GroupSpec group;
      try {
        group = new GroupSpec(name == null ? loaded.name() : name, loaded.partitionsUsed(), replicas);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage(), e);
      }
      GroupSpec[] before = {null};
      withAdmin(target, admin -> {
        admin.init();
        before[0] = admin.groups().get(group.name());
        admin.createOrUpdateGroup(group);
      });
      CliAudit.record(target.zkConfig(), target.clusterName(), before[0] == null ? "group.create" : "group.update",
          "group " + group.name(), CliAudit.spec(before[0]), CliAudit.spec(group));
      spec.commandLine().getOut().println("group " + group.name() + ": " + group.partitions() + " partitions, "
          + group.replicas() + " replicas");
      return Gridway.OK;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Delete a consumer group and its checkpoints in ZooKeeper (its consumers release its partitions first).",
      footerHeading = "%nExamples:%n", footer = {"  gridway cluster group delete orders --config /etc/gridway/controller.yaml"})
  static final class Delete implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;

    @Parameters(paramLabel = "GROUP", description = "The group.")
    String group;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      GroupSpec[] before = {null};
      withAdmin(target, admin -> {
        before[0] = admin.groups().get(group);
        admin.deleteGroup(group);
      });
      CliAudit.record(target.zkConfig(), target.clusterName(), "group.delete", "group " + group, CliAudit.spec(before[0]),
          null);
      spec.commandLine().getOut().println("group " + group + " deleted");
      return Gridway.OK;
    }
  }

  @Command(name = "pause", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Pause a consumer group: every partition stops (in-flight batches finish, checkpoints are recorded).",
      footerHeading = "%nExamples:%n", footer = {"  gridway cluster group pause orders --config /etc/gridway/controller.yaml",
          "  gridway cluster group pause orders --partition 3 --config /etc/gridway/controller.yaml"})
  static final class Pause implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;

    @Parameters(paramLabel = "GROUP", description = "The group.")
    String group;

    @Spec CommandSpec spec;

    @Option(names = "--partition", paramLabel = "P", description = "Only this partition (the others keep running).")
    Integer partition;

    @Override
    public Integer call() {
      setPaused(target, group, partition, true);
      spec.commandLine().getOut().println("group " + group + (partition == null ? "" : " partition " + partition) + " paused");
      return Gridway.OK;
    }
  }

  @Command(name = "resume", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Resume a paused consumer group: its partitions start again from their checkpoints.",
      footerHeading = "%nExamples:%n", footer = {"  gridway cluster group resume orders --config /etc/gridway/controller.yaml"})
  static final class Resume implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;

    @Parameters(paramLabel = "GROUP", description = "The group.")
    String group;

    @Spec CommandSpec spec;

    @Option(names = "--partition", paramLabel = "P", description = "Only this partition (the others keep running).")
    Integer partition;

    @Override
    public Integer call() {
      setPaused(target, group, partition, false);
      spec.commandLine().getOut().println("group " + group + (partition == null ? "" : " partition " + partition) + " resumed");
      return Gridway.OK;
    }
  }

  @Command(name = "reset", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = {"Reset a partition's checkpoint: to an SCN, to the newest SCN the source's relays have (--latest), "
          + "shifted by N from the current one, to a source commit time (the first commit at or after it, found in the "
          + "relays' buffer), or to a fresh snapshot of its tables (--snapshot). Prints the dry run first (what is replayed or skipped), then records the reset, which the "
          + "partition's next leader carries out through its own checkpoint store when the partition is resumed — the "
          + "same request the admin UI makes, so it works for exactly-once groups (checkpoints in the target) too.",
          "Only while the partition or its group is paused. --dry-run prints the plan and changes nothing."},
      footerHeading = "%nExamples:%n",
      footer = {"  gridway cluster group reset orders --partition 3 --scn 4294967296123 --config /etc/gridway/controller.yaml",
          "  gridway cluster group reset orders --partition 3 --time 2026-11-26T08:15:00Z --dry-run --config /etc/gridway/controller.yaml",
          "  gridway cluster group reset orders --partition 3 --shift -1000 --expect-version 1000.-.paused --config /etc/gridway/controller.yaml"})
  static final class Reset implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;

    @Parameters(paramLabel = "GROUP", description = "The group.")
    String group;

    @Option(names = "--partition", required = true, paramLabel = "P", description = "The partition.")
    int partition;

    @picocli.CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    To to;

    /** Exactly one way to pick the SCN. */
    static final class To {
      @Option(names = "--scn", paramLabel = "SCN", description = "The new checkpoint (unsigned decimal SCN): restarts just after it.")
      String scn;

      @Option(names = "--latest", description = "The newest SCN the source's relays have: skip everything up to now.")
      boolean latest;

      @Option(names = "--shift", paramLabel = "N",
          description = "N from the current checkpoint: negative replays, positive skips.")
      Long shift;

      @Option(names = "--time", paramLabel = "INSTANT",
          description = "A source commit time (ISO-8601, e.g. 2026-11-26T08:15:00Z): restarts with the first commit at or after it.")
      String time;

      @Option(names = "--snapshot", description = "Load the partition's tables again from a fresh snapshot, the change stream "
          + "going on from the newest SCN the source's relays have (the group's consumers need start: snapshot or "
          + "onEvicted: snapshot).")
      boolean snapshot;
    }

    @Option(names = "--source", paramLabel = "SOURCE", description = "The source whose relays to ask (needed when the cluster has several).")
    String source;

    @Option(names = "--dry-run", description = "Print the plan only.")
    boolean dryRun;

    @Option(names = "--relay-ca-file", paramLabel = "FILE",
        description = "Relays over https: PEM CA certificates to trust (then every relay must be https).")
    String relayCaFile;

    @Option(names = "--relay-cert-file", paramLabel = "FILE", description = "With --relay-key-file: a client certificate for relays that ask for one.")
    String relayCertFile;

    @Option(names = "--relay-key-file", paramLabel = "FILE", description = "The private key of --relay-cert-file (PEM).")
    String relayKeyFile;

    @Option(names = "--relay-token-file", paramLabel = "FILE", description = "A file holding the bearer token relays require.")
    String relayTokenFile;

    @Option(names = "--relay-token-env", paramLabel = "VAR", description = "An environment variable holding that token (instead of a file).")
    String relayTokenEnv;

    @Option(names = "--expect-version", paramLabel = "V",
        description = "Record the reset only if the partition is still as the dry run of this version saw it (its last line).")
    String expectVersion;

    @Option(names = "--json", description = "Print the plan as the admin API's JSON.")
    boolean json;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      String how = to.scn != null ? "scn" : to.latest ? "latest" : to.shift != null ? "shift" : to.snapshot ? "snapshot" : "time";
      ResetTarget wanted = new ResetTarget(how, to.scn, to.shift, to.time, source);
      PrintWriter out = spec.commandLine().getOut();
      try (CheckpointResetTool tool = CheckpointResetTool.open(target.zkConfig(), target.clusterName(), Duration.ofSeconds(10),
          relays(), System.getenv())) {
        ResetPlan plan = tool.plan(group, partition, wanted);
        print(out, plan);
        out.flush(); // shown even when the request below is refused
        if (dryRun) {
          return Gridway.OK;
        }
        ResetPlan done = tool.request(group, partition, wanted, expectVersion != null ? expectVersion : plan.version(),
            System.getProperty("user.name", "cli") + " (cli)");
        if (json) {
          print(out, done);
        }
        out.println("group " + group + " partition " + partition + ": reset to " + done.targetScn()
            + " recorded; the partition's next leader carries it out when it is resumed");
        return Gridway.OK;
      } catch (CheckpointResetTool.Refused e) {
        String field = e.field();
        boolean option = field != null && java.util.Set.of("scn", "shift", "time", "source").contains(field);
        throw new UsageException(option && e.getMessage().startsWith(field + ": ") ? "--" + e.getMessage() : e.getMessage(), e);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new UsageException(e.getMessage(), e);
      }
    }

    /** The relays' TLS and token as the consumer's and the admin's {@code tls}/{@code auth} settings (docs/security.md). */
    private AdminSettings.Relays relays() {
      if (relayCaFile == null && (relayCertFile != null || relayKeyFile != null)) {
        throw new UsageException("--relay-cert-file and --relay-key-file need --relay-ca-file");
      }
      try {
        return new AdminSettings.Relays(
            relayCaFile == null ? null : new ConsumerConfig.Tls(relayCaFile, relayCertFile, relayKeyFile),
            relayTokenFile == null && relayTokenEnv == null ? null : new ConsumerConfig.Auth(relayTokenFile, relayTokenEnv));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage().replace("tls: ", "").replace("auth: ", "")
            .replace("certFile", "--relay-cert-file").replace("keyFile", "--relay-key-file")
            .replace("tokenFile", "--relay-token-file").replace("tokenEnv", "--relay-token-env"), e);
      }
    }

    private void print(PrintWriter out, ResetPlan plan) {
      if (!json) {
        out.print(plan.text());
        return;
      }
      try {
        out.println(new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(plan));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("cannot render the plan as JSON: " + e.getOriginalMessage(), e);
      }
    }
  }
}
