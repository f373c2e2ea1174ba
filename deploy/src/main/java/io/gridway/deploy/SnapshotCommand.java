package io.gridway.deploy;

import io.gridway.cluster.ClusterAdmin;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gridway snapshot --group G [--tables a,b] [--partition P]}: loads tables of a consumer group again
 * (docs/bootstrap.md §5.4) through {@link GroupSnapshot}, the checkpoint reset's machinery: a request per partition in
 * ZooKeeper that the partition's next leader carries out through its own checkpoint store. {@code --status} lists the
 * requests waiting or loading.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = {"Load tables of a consumer group again from the source (an on-demand snapshot, docs/bootstrap.md): "
        + "each partition reads them chunk by chunk, interleaved with its change stream from its checkpoint; keyed rows "
        + "are upserted, a keyless table's rows of the partition replaced in one transaction. The chosen partitions of a "
        + "running group are paused until no instance leads them, then resumed, and their new leaders load the tables; "
        + "paused ones load them when resumed.",
        "--status lists what is waiting or loading."},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway snapshot --group orders --config /etc/gridway/controller.yaml",
        "  gridway snapshot --group orders --tables shop.orders,shop.lines --zk 127.0.0.1:2181 --cluster gridway",
        "  gridway snapshot --group orders --status --config /etc/gridway/controller.yaml"})
final class SnapshotCommand implements Callable<Integer> {
  @Mixin ClusterCommand.Target target;

  @Option(names = "--group", required = true, paramLabel = "GROUP", description = "The consumer group.")
  String group;

  @Option(names = "--tables", split = ",", paramLabel = "DB.TABLE",
      description = "The tables to load, in this order (default: the group's own list: its snapshot.tables, else every "
          + "table the relay captures).")
  List<String> tables;

  @Option(names = "--partition", split = ",", paramLabel = "P", description = "Only these partitions (default: all).")
  List<Integer> partitions;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
      description = "How long to wait for the partitions' leaders to stop, in seconds (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Option(names = "--status", description = "List the snapshots waiting or loading; change nothing.")
  boolean status;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    if (timeoutSeconds < 1) {
      throw new UsageException("--timeout: at least 1 second, not " + timeoutSeconds);
    }
    try {
      if (status) {
        printStatus(out);
        return Gridway.OK;
      }
      List<String> names = tables == null ? List.of() : tables.stream().map(String::trim).toList();
      GroupSnapshot.Outcome done = GroupSnapshot.request(target.zkConfig(), target.clusterName(), group, names,
          partitions == null ? List.of() : partitions, System.getProperty("user.name", "cli") + " (cli)",
          Duration.ofSeconds(timeoutSeconds));
      String what = names.isEmpty() ? "the group's tables" : String.join(", ", names);
      out.println("group " + group + ": snapshot of " + what + " recorded for partitions " + done.recorded()
          + (done.cycled().isEmpty() ? "" : "; partitions " + done.cycled() + " were paused until released and resumed: "
              + "their leaders load the tables now")
          + (done.waiting().isEmpty() ? "" : "; partitions " + done.waiting() + " are paused: they load them when resumed")
          + "; follow it with gridway snapshot --group " + group + " --status");
      return Gridway.OK;
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      throw new UsageException(message.startsWith("tables: ") || message.startsWith("group: ")
          || message.startsWith("partition: ") ? "--" + message : message, e);
    } catch (IllegalStateException e) {
      throw new UsageException(e.getMessage(), e);
    }
  }

  private void printStatus(PrintWriter out) {
    try (ClusterAdmin admin = new ClusterAdmin(target.zkConfig(), target.clusterName());
        SnapshotRequests requests = SnapshotRequests.open(target.zkConfig(), target.clusterName())) {
      if (!admin.groups().containsKey(group)) {
        throw new IllegalArgumentException("group: no consumer group '" + group + "' in cluster " + target.clusterName());
      }
      Map<Integer, SnapshotRequests.Request> pending = requests.pending(group);
      if (pending.isEmpty()) {
        out.println("group " + group + ": no snapshot waiting or loading");
      }
      for (Map.Entry<Integer, SnapshotRequests.Request> e : pending.entrySet()) {
        SnapshotRequests.Request r = e.getValue();
        out.println("group " + group + " partition " + e.getKey() + ": " + (r.taken() ? "loading " : "waiting to load ")
            + (r.tables().isEmpty() ? "the group's tables" : String.join(", ", r.tables())) + " (asked by " + r.user()
            + " at " + java.time.Instant.ofEpochMilli(r.requestedMillis()) + ")");
      }
    }
  }
}
