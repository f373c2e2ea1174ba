package io.gridway.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report of one perf command: Markdown in the whitepaper's columns (plus the ratio to the limit
 * and events/s per vCPU), the whitepaper's matching rows beside ours, and JSON in issue 8 §8's shape.
 * Built on one thread, then written once.
 */
final class Report {
  /** Table 1 of the whitepaper (stage 1, MySQL binlog → relay, 4,800,000 records of 1,100 bytes). */
  private static final String[][] WHITEPAPER_STAGE1 = {
    {"n1-standard-2", "1", "single relay 2-cpu", "0.90", "1.80", "156.10", "30750", "338"},
    {"n1-standard-4", "1", "single relay 4-cpu", "0.78", "3.10", "112.78", "42560", "468"},
    {"n1-standard-8", "1", "single relay 8-cpu", "0.62", "4.97", "62.10", "77295", "850"},
    {"n1-standard-8 x 2", "2", "2 relays 8-cpu", "0.56", "8.88", "42.44", "113114", "1,244"},
    {"n1-standard-8 x 3", "3", "3 relays 8-cpu", "0.55", "13.15", "29.20", "164367", "1,808"},
  };

  /** Table 2 of the whitepaper (stage 2, a preloaded relay on its own 8-vCPU VM → consumers, mocked target). */
  private static final String[][] WHITEPAPER_STAGE2 = {
    {"n1-standard-2", "1", "single consumer 2 cpu", "0.95", "1.90", "110.08", "43605", "480"},
    {"n1-standard-4", "1", "single consumer 4 cpu", "0.54", "2.17", "78.93", "60815", "669"},
    {"n1-standard-8", "1", "2 consumers 8 cpu", "0.59", "4.72", "52.88", "90765", "998"},
    {"n1-standard-8", "1", "3 consumers 8 cpu", "0.79", "6.32", "35.72", "134378", "1,478"},
  };

  private final Machine machine;
  private final String command;
  private final List<String> notes = new ArrayList<>();
  private final List<RunResult> runs = new ArrayList<>();
  private final List<TlsComparison> tls = new ArrayList<>();
  private final Map<String, Object> load = new LinkedHashMap<>();

  Report(Machine machine, String command) {
    this.machine = machine;
    this.command = command;
  }

  void note(String line) {
    notes.add(line);
  }

  void load(String key, Object value) {
    load.put(key, value);
  }

  void add(RunResult run) {
    runs.add(run);
  }

  /** A configuration measured over HTTP and HTTPS ({@code --tls}); both runs are added with {@link #add} too. */
  void tls(TlsComparison comparison) {
    tls.add(comparison);
  }

  List<TlsComparison> tlsComparisons() {
    return List.copyOf(tls);
  }

  List<RunResult> runs() {
    return List.copyOf(runs);
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("machine", Map.of("cores", machine.cores(), "memGiB", machine.memGiB(), "cpuModel", machine.cpuModel()));
    json.put("command", command);
    if (!load.isEmpty()) {
      json.put("load", load);
    }
    json.put("runs", runs.stream().map(RunResult::toJson).toList());
    if (!tls.isEmpty()) {
      json.put("tls", tls.stream().map(TlsComparison::toJson).toList());
    }
    return json;
  }

  String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("# gridway perf\n\n`").append(command).append("`\n\nMachine: ").append(machine.description())
        .append("; MariaDB runs on the same machine.\n\n");
    if (!load.isEmpty()) {
      md.append("## Load\n\n| | |\n|---|---|\n");
      load.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
      md.append('\n');
    }
    if (!runs.isEmpty()) {
      md.append("## Runs\n\n| Instance type | Stage | Processes | Configuration | # of records | record size | CPU load"
          + " | vCPUs | duration | rate ev/s | rate Mbit/s | ratio to limit | ev/s per vCPU |\n");
      md.append("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (RunResult r : runs) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %,d | %d | %s | %s | %.2f | %s | %s | %s | %s |%n",
            machine.description(), r.stage(), r.processes(), r.configuration(), r.records(), r.recordSize(),
            fmt(r.cpuLoad(), "%.2f"), fmt(r.vcpus(), "%.2f"), r.durationSec(),
            r.valid() ? fmt(r.eventsPerSec(), "%,.0f") : "**invalid**: " + r.invalidReason(),
            fmt(r.mbitPerSec(), "%,.0f"), fmt(r.limitRatio(), "%.2f"), fmt(r.eventsPerVcpu(), "%,.0f")));
      }
      md.append('\n');
    }
    if (runs.stream().anyMatch(r -> WINDOWED.contains(r.stage()))) {
      steady(md);
      cpuPerMillion(md);
    }
    if (runs.stream().anyMatch(r -> r.targetRatio() != null)) {
      md.append("## Real targets beside their bulk-load limits (same run)\n\n| Configuration | target | rate ev/s | limit"
          + " | limit rows/s | ratio to the target's limit | ratio (steady) |\n|---|---|---:|---|---:|---:|---:|\n");
      for (RunResult r : runs) {
        RunResult.TargetRatio t = r.targetRatio();
        if (t != null) {
          md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %s | %,.0f | %.2f | %s |%n", r.configuration(), r.target(),
              r.eventsPerSec(), t.limit(), t.limitPerSec(), t.ratio(), fmt(t.steadyRatio(), "%.2f")));
        }
      }
      md.append('\n');
    }
    if (!tls.isEmpty()) {
      md.append(TlsComparison.MARKDOWN_HEAD);
      tls.forEach(c -> md.append(c.markdownRow()));
      md.append('\n');
    }
    if (runs.stream().anyMatch(r -> r.latency() != null)) {
      md.append("## Latency (apply time − send time)\n\n| Configuration | target | transactions | asked tx/s | achieved tx/s"
          + " | p50 ms | p95 ms | p99 ms | max ms | insert+commit p50 / p95 / p99 ms | apply − commit p50 / p95 / p99 ms"
          + " |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (RunResult r : runs) {
        if (r.latency() != null) {
          RunResult.Latency l = r.latency();
          md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,.0f | %,.0f | %.1f | %.1f | %.1f | %.1f | %s | %s |%n",
              r.configuration(), r.target(), l.samples(), l.askedPerSec(), l.achievedPerSec(), l.p50(), l.p95(), l.p99(),
              l.max(), spread(l.commitMs()), spread(l.afterCommitMs())));
        }
      }
      md.append('\n');
    }
    if (runs.stream().anyMatch(r -> r.stage().equals("stage1"))) {
      whitepaper(md, "The whitepaper's Table 1 (stage 1), for comparison", "4,800,000 records of 1,100 bytes, MySQL 5.7 on its"
          + " own 16-CPU VM, each relay on its own VM", WHITEPAPER_STAGE1);
    }
    if (runs.stream().anyMatch(r -> r.stage().equals("stage2"))) {
      whitepaper(md, "The whitepaper's Table 2 (stage 2), for comparison", "4,800,000 records preloaded into one relay on its"
          + " own 8-vCPU VM; the consumers' VM", WHITEPAPER_STAGE2);
    }
    if (runs.stream().anyMatch(r -> r.stage().equals("e2e"))) {
      md.append("## The whitepaper's Table 3 (end to end), for comparison\n\n4,800,000 records, MySQL binlog → 3 relays → 3"
          + " consumers → a mocked target, 4 VMs of 8 vCPUs (no CPU figures published; per provisioned vCPU: 32).\n\n");
      md.append("| Instance type | VMs | Configuration | duration | rate ev/s | rate Mbit/s | ev/s per provisioned vCPU |\n");
      md.append("|---|---:|---|---:|---:|---:|---:|\n");
      md.append("| n1-standard-8 | 4 | 3 relays, 3 consumers, 8 cpu | 33.66 | 142,602 | 1,569 | 4,456 |\n\n");
    }
    md.append("CPU load = CPU seconds of the measured processes / (duration × ").append(machine.cores())
        .append(" cores); vCPUs = CPU seconds / duration (the whitepaper's definitions). Mbit/s counts the binlog bytes of"
            + " the load once per run.\n");
    for (String note : notes) {
      md.append("\n").append(note).append('\n');
    }
    return md.toString();
  }

  /** The stages whose runs carry a steady window (SteadyWindow). */
  private static final Set<String> WINDOWED = Set.of("limit-binlog", "limit-loopback", "limit-goldengate",
      "limit-postgres", "limit-mariadb", "stage1", "stage2", "e2e");

  /** The runs' steady-state windows (issue 24): the figures that compare a warm relay with a warm limit. */
  private void steady(StringBuilder md) {
    md.append("## Steady state (after the warm-up share of each run's events)\n\n| Stage | Configuration | warm-up share"
        + " | window s | window events | rate ev/s | vCPUs | ev/s per vCPU | ratio to limit (steady) | ratio per vCPU (steady)"
        + " | ratio to limit (whole run) | load average at the window's end |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:"
        + "|---:|---|\n");
    for (RunResult r : runs) {
      SteadyWindow w = r.steady();
      if (!WINDOWED.contains(r.stage())) {
        continue; // relay-read and the peer time a second, warm pass; latency records after its own warm-up
      }
      if (!r.valid() || w == null) {
        md.append(String.format(Locale.ROOT, "| %s | %s | | | | %s | | | | | | |%n", r.stage(), r.configuration(),
            r.valid() ? "no window (the run was too short for two samples past the warm-up share)" : "**invalid**"));
        continue;
      }
      Double vcpus = w.vcpus();
      md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %,d | %,.0f | %s | %s | %s | %s | %s | %s |%n",
          r.stage(), r.configuration(), w.warmupShare(), w.seconds(), w.events(), w.eventsPerSec(), fmt(vcpus, "%.2f"),
          fmt(r.steadyEventsPerVcpu(), "%,.0f"), fmt(r.steadyRatio(), "%.2f"), fmt(r.steadyRatioPerVcpu(), "%.2f"),
          fmt(r.limitRatio(), "%.2f"), w.loadAverage()));
    }
    md.append('\n');
  }

  /**
   * CPU seconds per million events inside each steady window, split by role where the run knows it: the per-core
   * costs the scaling model in perf/RESULTS.md turns into a prediction for relays and consumers on machines of their own.
   */
  private void cpuPerMillion(StringBuilder md) {
    md.append("## CPU seconds per million events (steady windows)\n\n| Stage | Configuration | measured processes"
        + " | relays | consumers | target server |\n|---|---|---:|---:|---:|---:|\n");
    for (RunResult r : runs) {
      SteadyWindow w = r.steady();
      if (!WINDOWED.contains(r.stage()) || !r.valid() || w == null || w.cpuSeconds() < 0 || w.events() <= 0) {
        continue;
      }
      double perMillion = 1e6 / w.events();
      Map<String, Double> roles = w.cpuByRole();
      String relays = r.stage().equals("stage1") ? String.format(Locale.ROOT, "%.2f", w.cpuSeconds() * perMillion)
          : perMillion(roles.get("relays"), perMillion);
      md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %s | %s | %s |%n", r.stage(), r.configuration(),
          w.cpuSeconds() * perMillion, relays, perMillion(roles.get("consumers"), perMillion),
          perMillion(roles.get("target server"), perMillion)));
    }
    md.append("\nMeasured processes: those of the run's CPU column (a limit: the harness, and for a target's limit its"
        + " server too; stage 2: the consumers and the preloaded relay). The target server of an e2e run is not among"
        + " them; its column is read beside them.\n\n");
  }

  private static String perMillion(Double seconds, double perMillion) {
    return seconds == null ? "" : String.format(Locale.ROOT, "%.2f", seconds * perMillion);
  }

  private static void whitepaper(StringBuilder md, String title, String setting, String[][] rows) {
    md.append("## ").append(title).append("\n\n").append(setting)
        .append("; ev/s per vCPU is rate / vCPUs, the figure to hold ours against.\n\n");
    md.append("| Instance type | VMs | Configuration | CPU load | vCPUs | duration | rate ev/s | rate Mbit/s | ev/s per vCPU |\n");
    md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (String[] row : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %,d | %s | %,.0f |%n", row[0], row[1], row[2],
          row[3], row[4], row[5], Long.parseLong(row[6]), row[7], Long.parseLong(row[6]) / Double.parseDouble(row[4])));
    }
    md.append('\n');
  }

  private static String spread(PacedWriter.Spread s) {
    return s == null ? "" : String.format(Locale.ROOT, "%.1f / %.1f / %.1f", s.p50(), s.p95(), s.p99());
  }

  private static String fmt(Double x, String format) {
    return x == null ? "" : String.format(Locale.ROOT, format, x);
  }

  /** Writes report.md and report.json into {@code dir}, and the JSON to {@code json} too if given. */
  void write(Path dir, Path json) throws IOException {
    Files.createDirectories(dir);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    Files.writeString(dir.resolve("report.md"), markdown());
    String svg = Chart.svg("gridway perf: throughput per run — " + machine.description(), runs);
    Files.writeString(dir.resolve("chart.svg"), svg);
    Files.writeString(dir.resolve("chart.html"), Chart.html("gridway perf", svg));
    String text = mapper.writeValueAsString(toJson());
    Files.writeString(dir.resolve("report.json"), text);
    if (json != null) {
      Path parent = json.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(json, text);
    }
  }
}
