package io.gridway.perf;

import io.netty.handler.ssl.SslContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gridway perf relay-read}: the relay's reader benchmark (the relay issue's drain method) on a
 * relay JVM preloaded with the load: 1 and 3 concurrent HTTP readers (by default) each draining its
 * buffer, beside the loopback copy limit. With {@code --tls} the same readers then drain a second relay, preloaded
 * with the same load, over HTTPS, and the report sets each TLS run beside its plaintext twin.
 */
@Command(name = "relay-read", mixinStandardHelpOptions = true,
    description = "Drain a preloaded relay JVM's buffer with N concurrent HTTP readers, beside the loopback copy limit.",
    footerHeading = "%nExamples:%n",
    footer = {"  gridway perf relay-read --quick", "  gridway perf relay-read --readers 1,2,3 --decode header,full --repeat 3",
        "  gridway perf relay-read --tls --readers 1,3"})
final class RelayReadCommand implements Callable<Integer> {
  @Mixin PerfOptions options;
  @Mixin GridOptions grid;

  @Option(names = "--readers", split = ",", defaultValue = "1,3", description = "reader counts (default ${DEFAULT-VALUE})")
  List<Integer> readers;

  @Option(names = "--decode", split = ",", defaultValue = "header",
      description = "header (walk frames by header) and/or full (decode every frame as a consumer does); default ${DEFAULT-VALUE}")
  List<String> decode;

  @Option(names = "--tls", description = "after the plain HTTP runs, the same runs against a relay serving HTTPS (certificates"
      + " made at run start under the results directory's tls/), each TLS rate beside its plaintext twin's")
  boolean tls;

  @Override
  public Integer call() throws Exception {
    grid.validate();
    for (String d : decode) {
      if (!d.equals("header") && !d.equals("full")) {
        throw new IllegalArgumentException("--decode: header or full, not " + d);
      }
    }
    return Session.run(options, grid, "gridway perf relay-read --readers " + GridOptions.join(readers) + " --decode "
        + GridOptions.join(decode) + (tls ? " --tls" : ""), (context, report) -> {
      List<RunResult> plain = new ArrayList<>();
      RunResult limit = null;
      try (Stage2Run stage = new Stage2Run(context)) {
        String problem = stage.preload();
        if (problem != null) {
          report.add(RunResult.invalid("relay-read", "preloading the relay", 1, 1, context.workload(), 0, 0, 0,
              context.machine().cores(), problem));
          return;
        }
        for (int repetition = 1; repetition <= options.repeat; repetition++) {
          limit = new Limits(context).loopback();
          report.add(limit);
          plain.addAll(measureWith(context, stage.relay(), readers, decode, limit, report, null));
        }
        report.note(NOTE);
      }
      if (tls) {
        measureTls(context, limit, plain, report);
      }
    });
  }

  /**
   * The runs of {@code plain} again, in the same order, against a relay serving HTTPS (preloaded after the plain one
   * stopped: two buffers holding the load need not fit together), each set beside its twin.
   */
  private void measureTls(RunContext context, RunResult limit, List<RunResult> plain, Report report) throws Exception {
    PerfTls pki = PerfTls.create(context.dir().resolve("tls"));
    try (Stage2Run stage = new Stage2Run(context, pki)) {
      String problem = stage.preload();
      if (problem != null) {
        report.add(RunResult.invalid("relay-read", "preloading the TLS relay", 1, 1, context.workload(), 0, 0, 0,
            context.machine().cores(), problem));
        return;
      }
      List<RunResult> secure = new ArrayList<>();
      for (int repetition = 1; repetition <= options.repeat; repetition++) {
        secure.addAll(measureWith(context, stage.relay(), readers, decode, limit, report, pki.readers()));
      }
      PerfTls.Handshake handshake = PerfTls.probe(stage.relay().relay(0).address(), pki, E2eRun.HANDSHAKES);
      for (int i = 0; i < plain.size(); i++) {
        report.tls(new TlsComparison(plain.get(i), secure.get(i), handshake));
      }
    }
    report.note(TLS_NOTE);
  }

  static final String TLS_NOTE = "TLS beside plaintext: the relay serves HTTPS (http.tls) with an ECDSA P-256 certificate"
      + " from a CA made at run start (the results directory's tls/); the readers (relay-read, in the harness, in the"
      + " consumer's TLS: BoringSSL where it loads) or the consumers (e2e, consumer.tls.caFile) trust that CA. Plaintext and TLS runs measure the same"
      + " configuration on the same load, back to back; ratio = TLS ev/s / plaintext ev/s (goal ≥ 0.8), per vCPU = the"
      + " same with events per CPU second (the cipher's CPU cost, apart from how the shared cores were shared). Each"
      + " reader or consumer connection does one full handshake, once per run: the handshake column (fresh"
      + " connections probed after the TLS run) is what that costs; the rest of the gap is encryption.";

  static final String NOTE = "relay-read: the relay issue's drain benchmark on a relay JVM whose buffer holds the load"
      + " (6 partitions, all read): N readers in the harness JVM long-poll from SCN 0 with maxBytes 1 MiB and no"
      + " compression, each draining the whole buffer at once; rate = events of all readers / time; Mbit/s = the"
      + " binlog bytes × N; CPU = relay + harness processes. The limit is the loopback copy of the binlog's bytes.";

  /** The reader runs against {@code limit} (measured by the caller in the same run). */
  static void measureWith(RunContext context, RelayFleet relay, List<Integer> readers, List<String> decode, RunResult limit,
      Report report) throws Exception {
    measureWith(context, relay, readers, decode, limit, report, null);
  }

  /** As above, over HTTPS with {@code tls} (null: HTTP); returns the runs added, in order. */
  static List<RunResult> measureWith(RunContext context, RelayFleet relay, List<Integer> readers, List<String> decode,
      RunResult limit, Report report, SslContext tls) throws Exception {
    RelayReadRun run = new RelayReadRun(context, relay, tls);
    List<RunResult> added = new ArrayList<>();
    for (String d : decode) {
      Session.attempt(context, "relay-read", () -> run.read(1, d.equals("full"))); // warm-up: the relay's and the readers' JIT
      for (int n : readers) {
        RunResult result = Session.withRatios(Session.attempt(context, "relay-read", () -> run.read(n, d.equals("full"))), limit);
        report.add(result);
        added.add(result);
      }
    }
    return added;
  }
}
