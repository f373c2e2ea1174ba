package io.gridway.perf;

import io.netty.handler.ssl.SslContext;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The relay's reader benchmark ({@code relay-read}) on a relay JVM whose buffer holds the load (stage 2's
 * preloaded relay): N {@link RelayReader}s in the harness, each draining the whole buffer at once, timed
 * from their common start to the last one finishing; rate = events read by all readers / time. CPU
 * seconds: the relay process's plus the harness's (the readers) over the same interval. With a TLS context the
 * relay serves HTTPS and the readers use it ({@code --tls}). Single-threaded caller; one per relay.
 */
final class RelayReadRun {
  private final RunContext context;
  private final RelayFleet relay;
  private final SslContext tls; // null: plain HTTP

  RelayReadRun(RunContext context, RelayFleet relay, SslContext tls) {
    this.context = context;
    this.relay = relay;
    this.tls = tls;
  }

  RunResult read(int readers, boolean decode) throws Exception {
    Workload w = context.workload();
    String config = readers + (tls == null ? " HTTP" : " HTTPS") + (readers == 1 ? " reader" : " readers") + " in the harness, long-poll 1 MiB, "
        + (decode ? "every frame decoded" : "frames walked by header") + ", each draining the whole buffer";
    URI address = relay.relay(0).address();
    long endScn = context.loaded().end().scn().value();
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<RelayReader.Read>> reads = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        reads.add(pool.submit(() -> {
          go.await();
          return new RelayReader(address, decode, tls).readAll(endScn);
        }));
      }
      double cpu = relay.cpuNow() + ProcCpu.self();
      long t0 = System.nanoTime();
      go.countDown();
      long events = 0;
      String problem = null;
      for (Future<RelayReader.Read> read : reads) {
        try {
          RelayReader.Read r = read.get();
          events += r.events();
          if (r.events() != w.events() && problem == null) {
            problem = "a reader read " + r.events() + " events, the load wrote " + w.events();
          }
        } catch (ExecutionException e) {
          problem = problem != null ? problem : "a reader failed: " + e.getCause();
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      cpu = relay.cpuNow() + ProcCpu.self() - cpu;
      if (problem == null) {
        problem = relay.problem();
      }
      if (problem != null) {
        return RunResult.invalid("relay-read", config, 1, 1, w, events, seconds, cpu, context.machine().cores(), problem)
            .withConsumers(readers, "null");
      }
      return RunResult.valid("relay-read", config, 1, 1, w, events, context.loaded().binlogBytes() * readers, seconds, cpu,
          context.machine().cores()).withConsumers(readers, "null");
    } finally {
      pool.shutdownNow();
    }
  }
}
