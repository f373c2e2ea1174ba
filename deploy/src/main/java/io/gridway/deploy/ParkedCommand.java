package io.gridway.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.applier.jdbc.JdbcService;
import io.gridway.applier.jdbc.JdbcTargetConfig;
import io.gridway.applier.jdbc.ParkedChanges;
import io.gridway.core.config.ConfigLoader;
import io.gridway.consumer.service.ServiceConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gridway parked list|replay|discard}: the changes a JDBC consumer group parked (values its target could not
 * hold), through {@link ParkedChanges} with the consumer's own configuration file. A running consumer of the group
 * applies a replayed or discarded key's later changes again by itself.
 */
@Command(name = "parked", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = "List, replay or discard the changes a consumer group parked in its target's dead-letter table.",
    subcommands = {ParkedCommand.ListParked.class, ParkedCommand.Replay.class, ParkedCommand.Discard.class},
    synopsisSubcommandLabel = "(list | replay | discard)",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway parked list --config /etc/gridway/consumer.yaml",
        "  gridway parked replay --config /etc/gridway/consumer.yaml --table shop.orders --key 'id=42'",
        "  gridway parked discard --config /etc/gridway/consumer.yaml --table shop.audit"})
final class ParkedCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required: list, replay or discard");
  }

  /** What every subcommand takes: the consumer's file and the selection. */
  abstract static class Operation implements Callable<Integer> {
    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
        description = "The consumer's YAML file (its applier.jdbc section and group are used).")
    Path config;

    @Option(names = "--table", paramLabel = "DB.TABLE", description = "Only this source table's parked changes.")
    String table;

    @Option(names = "--key", paramLabel = "KEY", description = "Only this key of --table, as listed (e.g. 'id=42').")
    String key;

    @Spec CommandSpec spec;

    abstract int run(ParkedChanges parked, ParkedChanges.Selection selection, PrintWriter out) throws SQLException;

    @Override
    public Integer call() throws SQLException {
      ServiceConfig service = ConfigLoader.load(config, ServiceConfig.class);
      JdbcTargetConfig jdbc = service.applier() == null ? null : service.applier().settings(JdbcTargetConfig.class);
      if (jdbc == null) {
        throw new UsageException(config + ": applier: parked changes are kept by the jdbc applier; this consumer has "
            + (service.applier() == null ? "none" : "applier " + service.applier().type()), null);
      }
      ParkedChanges.Selection selection;
      try {
        selection = new ParkedChanges.Selection(table, key);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      try (JdbcService target = JdbcService.start(service.consumer(), jdbc, new SimpleMeterRegistry())) {
        return run(new ParkedChanges(target), selection, spec.commandLine().getOut());
      }
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "The group's parked changes in SCN order: partition, SCN, table, operation, key and reason.",
      footerHeading = "%nExamples:%n",
      footer = {"  gridway parked list --config /etc/gridway/consumer.yaml --table shop.orders",
          "  gridway parked list --config /etc/gridway/consumer.yaml --json | jq '.[0].event'"})
  static final class ListParked extends Operation {
    @Option(names = "--json", description = "One JSON array (each entry with the change itself as JSON).")
    boolean json;

    @Override
    int run(ParkedChanges parked, ParkedChanges.Selection selection, PrintWriter out) throws SQLException {
      List<ParkedChanges.Parked> changes = parked.list(selection);
      if (json) {
        ObjectMapper mapper = new ObjectMapper();
        List<Map<String, Object>> entries = new ArrayList<>();
        try {
          for (ParkedChanges.Parked p : changes) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", p.id());
            entry.put("partition", p.partition());
            entry.put("scn", Long.toUnsignedString(p.scn()));
            entry.put("sourceTable", p.sourceTable());
            entry.put("targetTable", p.targetTable());
            entry.put("op", p.op());
            entry.put("key", p.key());
            entry.put("reason", p.reason());
            entry.put("parkedAt", p.parkedAt().toString());
            entry.put("event", mapper.readTree(p.event()));
            entries.add(entry);
          }
          out.println(mapper.writeValueAsString(entries));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          throw new IllegalStateException("cannot render parked changes as JSON: " + e.getOriginalMessage(), e);
        }
        return 0;
      }
      for (ParkedChanges.Parked p : changes) {
        out.println(p.id() + "  partition " + p.partition() + "  SCN " + Long.toUnsignedString(p.scn()) + "  "
            + p.sourceTable() + "  " + p.op() + "  " + p.key() + "  " + p.reason());
      }
      out.println(changes.size() + " parked change" + (changes.size() == 1 ? "" : "s"));
      return 0;
    }
  }

  @Command(name = "replay", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = {"Apply the parked changes again, each key's in SCN order, with the consumer's configuration as it "
          + "is now (fix the target or choose unfit-values: map first); applied ones leave the table.",
          "Exit code 1 when some stay parked (the target still refuses them)."},
      footerHeading = "%nExamples:%n",
      footer = {"  gridway parked replay --config /etc/gridway/consumer.yaml",
          "  gridway parked replay --config /etc/gridway/consumer.yaml --table shop.orders --key 'id=42'"})
  static final class Replay extends Operation {
    @Override
    int run(ParkedChanges parked, ParkedChanges.Selection selection, PrintWriter out) throws SQLException {
      ParkedChanges.Replayed replayed = parked.replay(selection);
      out.println("replayed " + replayed.applied() + " parked change" + (replayed.applied() == 1 ? "" : "s"));
      for (String still : replayed.stillParked()) {
        out.println("still parked: " + still);
      }
      return replayed.stillParked().isEmpty() ? 0 : 1;
    }
  }

  @Command(name = "discard", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
      description = "Remove the selected parked changes without applying them (the target keeps what it has).",
      footerHeading = "%nExamples:%n",
      footer = {"  gridway parked discard --config /etc/gridway/consumer.yaml --table shop.audit --key 'id=7'"})
  static final class Discard extends Operation {
    @Override
    int run(ParkedChanges parked, ParkedChanges.Selection selection, PrintWriter out) throws SQLException {
      out.println("discarded " + parked.discard(selection) + " parked changes");
      return 0;
    }
  }
}
