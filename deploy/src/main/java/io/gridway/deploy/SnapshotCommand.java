package io.gridway.deploy;

import io.gridway.cluster.GroupSnapshot;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gridway snapshot start|pause|resume|cancel|status --group G}: on-demand snapshots of a consumer group
 * (docs/bootstrap.md §5.4) through {@link GroupSnapshot}, the one implementation: a request per partition in ZooKeeper
 * that the partition's next leader carries out through its own checkpoint store, and flags on it that the leader
 * watches. The older form {@code gridway snapshot --group G [--tables] [--partition] [--status]} is kept: without a
 * subcommand it is {@code start} ({@code status} with {@code --status}), run by the same code.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    subcommands = {SnapshotCommand.Start.class, SnapshotCommand.Pause.class, SnapshotCommand.Resume.class,
        SnapshotCommand.Cancel.class, SnapshotCommand.Status.class},
    description = {"Load tables of a consumer group again from the source (an on-demand snapshot, docs/bootstrap.md "
        + "§5.4), and follow, pause, resume or cancel the load. Each partition reads the tables chunk by chunk, "
        + "interleaved with its change stream from its checkpoint; keyed rows are upserted, a keyless table's rows of "
        + "the partition replaced in one transaction.",
        "Without a subcommand: start (status with --status), the form of earlier versions."},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway snapshot start --group orders --config /etc/gridway/controller.yaml",
        "  gridway snapshot start --group orders --tables shop.orders,shop.lines --zk 127.0.0.1:2181 --cluster gridway",
        "  gridway snapshot status --group orders --watch --config /etc/gridway/controller.yaml",
        "  gridway snapshot pause --group orders --partition 0 --config /etc/gridway/controller.yaml",
        "  gridway snapshot resume --group orders --config /etc/gridway/controller.yaml",
        "  gridway snapshot cancel --group orders --config /etc/gridway/controller.yaml"})
final class SnapshotCommand implements Callable<Integer> {
  @Mixin ClusterCommand.Target target;

  @Option(names = "--group", paramLabel = "GROUP", description = "The consumer group (the older form: start).")
  String group;

  @Option(names = "--tables", split = ",", paramLabel = "DB.TABLE", description = "As with start.")
  List<String> tables;

  @Option(names = "--partition", split = ",", paramLabel = "P", description = "As with start.")
  List<Integer> partitions;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120", description = "As with start.")
  int timeoutSeconds;

  @Option(names = "--status", description = "The same as the status subcommand.")
  boolean status;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (group == null) {
      throw new UsageException("--group: missing (gridway snapshot start|pause|resume|cancel|status --group GROUP; "
          + "gridway snapshot --help)");
    }
    PrintWriter out = spec.commandLine().getOut();
    return status ? Status.print(target, group, false, out)
        : Start.run(target, group, tables, partitions, timeoutSeconds, out);
  }

  /** The group and the partitions a subcommand acts on. */
  static final class Choice {
    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "The consumer group.")
    String group;

    @Option(names = "--partition", split = ",", paramLabel = "P",
        description = "Only these partitions (default: every partition that has a snapshot).")
    List<Integer> partitions;

    List<Integer> partitions() {
      return partitions == null ? List.of() : partitions;
    }
  }

  @Command(name = "start", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Ask the group's partitions to load tables again. The chosen partitions of a running group are "
          + "paused until no instance leads them, then resumed, and their new leaders load the tables; partitions an "
          + "operator paused load them when resumed. Asking again starts the load over.")
  static final class Start implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "The consumer group.")
    String group;

    @Option(names = "--tables", split = ",", paramLabel = "DB.TABLE",
        description = "The tables to load, in this order (default: the group's own list: its snapshot.tables, else "
            + "every table the relay captures).")
    List<String> tables;

    @Option(names = "--partition", split = ",", paramLabel = "P", description = "Only these partitions (default: all).")
    List<Integer> partitions;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
        description = "How long to wait for the partitions' leaders to stop, in seconds (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
      return run(target, group, tables, partitions, timeoutSeconds, spec.commandLine().getOut());
    }

    static int run(ClusterCommand.Target target, String group, List<String> tables, List<Integer> partitions,
        int timeoutSeconds, PrintWriter out) throws InterruptedException {
      if (timeoutSeconds < 1) {
        throw new UsageException("--timeout: at least 1 second, not " + timeoutSeconds);
      }
      List<String> names = tables == null ? List.of() : tables.stream().map(String::trim).toList();
      try {
        GroupSnapshot.Outcome done = GroupSnapshot.request(target.zkConfig(), target.clusterName(), group, names,
            partitions == null ? List.of() : partitions, CliAudit.user(), Duration.ofSeconds(timeoutSeconds));
        CliAudit.record(target.zkConfig(), target.clusterName(), "snapshot.start", "group " + group, null,
            CliAudit.json(java.util.Map.of("tables", names, "partitions", done.recorded())));
        String what = names.isEmpty() ? "the group's tables" : String.join(", ", names);
        out.println("group " + group + ": snapshot of " + what + " recorded for partitions " + done.recorded()
            + (done.cycled().isEmpty() ? "" : "; partitions " + done.cycled() + " were paused until released and "
                + "resumed: their leaders load the tables now")
            + (done.waiting().isEmpty() ? "" : "; partitions " + done.waiting() + " are paused: they load them when "
                + "resumed")
            + "; follow it with gridway snapshot status --group " + group);
        return Gridway.OK;
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw usage(e);
      }
    }
  }

  /** pause, resume and cancel: a flag on each chosen partition's request. */
  abstract static class Control implements Callable<Integer> {
    @Mixin ClusterCommand.Target target;
    @Mixin Choice choice;
    @Spec CommandSpec spec;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
        description = "How long to wait for the leaders of the group's own loads (start: snapshot, a re-seed) to stop, "
            + "in seconds (default: ${DEFAULT-VALUE}): pausing or cancelling one moves its partition.")
    int timeoutSeconds;

    abstract GroupSnapshot.Action action();

    abstract String outcome();

    @Override
    public Integer call() throws InterruptedException {
      if (timeoutSeconds < 1) {
        throw new UsageException("--timeout: at least 1 second, not " + timeoutSeconds);
      }
      try {
        SortedSet<Integer> changed = GroupSnapshot.control(target.zkConfig(), target.clusterName(), choice.group,
            choice.partitions(), action(), CliAudit.user(), Duration.ofSeconds(timeoutSeconds));
        CliAudit.record(target.zkConfig(), target.clusterName(),
            "snapshot." + action().name().toLowerCase(java.util.Locale.ROOT), "group " + choice.group, null,
            CliAudit.json(java.util.Map.of("partitions", changed)));
        spec.commandLine().getOut().println("group " + choice.group + " partitions " + changed + ": " + outcome()
            + "; follow it with gridway snapshot status --group " + choice.group);
        return Gridway.OK;
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw usage(e);
      }
    }
  }

  @Command(name = "pause", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Pause the snapshot of the group's partitions: each reads no more chunks after the one in flight; "
          + "its change stream goes on, and resume continues from the last chunk applied (not from the start). A "
          + "paused snapshot survives a restart or a change of leader. The group's own load (start: snapshot, a "
          + "re-seed) is paused too: its partition moves once, so that its next leader runs the load under the flag.")
  static final class Pause extends Control {
    @Override
    GroupSnapshot.Action action() {
      return GroupSnapshot.Action.PAUSE;
    }

    @Override
    String outcome() {
      return "snapshot paused (their leaders read no more chunks after the one in flight; changes go on)";
    }
  }

  @Command(name = "resume", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Resume a paused snapshot from the last chunk applied.")
  static final class Resume extends Control {
    @Override
    GroupSnapshot.Action action() {
      return GroupSnapshot.Action.RESUME;
    }

    @Override
    String outcome() {
      return "snapshot resumed from the last chunk applied";
    }
  }

  @Command(name = "cancel", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = {"Cancel the snapshot: each leader stops loading after the chunk in flight (dropping it), records "
          + "that no load is in progress and deletes the request; the group keeps streaming. What the target holds "
          + "stays: the keyed rows of the chunks applied are upserted (the rest keep their earlier values), a keyless "
          + "table is either replaced whole (its one chunk was applied, in one transaction) or untouched — never "
          + "duplicated, never half replaced. A partition nobody leads drops it when next led. The group's own load "
          + "(start: snapshot, a re-seed) is cancelled the same way, after one move of its partition.",
          "To load the tables after all, start a new snapshot (it starts over)."})
  static final class Cancel extends Control {
    @Override
    GroupSnapshot.Action action() {
      return GroupSnapshot.Action.CANCEL;
    }

    @Override
    String outcome() {
      return "snapshot cancelled (their leaders stop after the chunk in flight and drop the request; the target keeps "
          + "the chunks applied)";
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Show the snapshots waiting or loading, per partition and per table: a progress bar, rows read "
          + "against the source's estimate (its table statistics), chunks and an ETA, as each partition's leader last "
          + "reported them (counted since that leader took the partition). Changes nothing.")
  static final class Status implements Callable<Integer> {
    /** How often --watch reads the status again. */
    private static final long WATCH_MILLIS = 1000;

    @Mixin ClusterCommand.Target target;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "The consumer group.")
    String group;

    @Option(names = "--watch", description = "Show it again every second until no snapshot is waiting or loading: "
        + "in place on a terminal, otherwise one block of lines per change.")
    boolean watch;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
      return print(target, group, watch, spec.commandLine().getOut());
    }

    static int print(ClusterCommand.Target target, String group, boolean watch, PrintWriter out)
        throws InterruptedException {
      boolean terminal = System.console() != null;
      List<String> shown = List.of();
      try (GroupSnapshot.StatusReader reader = GroupSnapshot.StatusReader.open(target.zkConfig(), target.clusterName())) {
        while (true) {
          Map<Integer, GroupSnapshot.PartitionLoad> loads;
          try {
            loads = reader.read(group);
          } catch (IllegalArgumentException e) {
            throw usage(e);
          }
          List<String> lines = SnapshotStatusView.lines(group, loads, System.currentTimeMillis());
          if (!lines.equals(shown)) {
            if (terminal && !shown.isEmpty()) {
              out.print("\033[" + shown.size() + "A\033[J"); // up over the last block and clear it: updates in place
            }
            lines.forEach(out::println);
            out.flush();
            shown = lines;
          }
          if (!watch || loads.isEmpty()) {
            return Gridway.OK;
          }
          Thread.sleep(WATCH_MILLIS);
        }
      }
    }
  }

  private static UsageException usage(RuntimeException e) {
    String message = e.getMessage();
    return new UsageException(message.startsWith("tables: ") || message.startsWith("group: ")
        || message.startsWith("partition: ") ? "--" + message : message, e);
  }
}
