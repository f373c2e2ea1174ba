package io.gridway.deploy.demo;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The demo's "Where to look" block: the databases' JDBC URLs and users, the relay's HTTP endpoints and config, the
 * consumers and their group, the admin UI and where its first credential is, the cluster and the command that shows
 * it, with {@code --tls} where the CA, client certificate and token are, the demo's files, its log and the workload.
 * Stateless.
 */
final class WhereToLook {
  private WhereToLook() {}

  /** What the user asked for. */
  record Run(double rate, Duration duration, int partitions, boolean keep) {}

  static void print(DemoTopology topology, Path dir, Run run, PrintWriter out) {
    String relay = topology.relayUrl();
    String log = System.getProperty("gridway.demo.log");
    out.println();
    out.println("Where to look:");
    DemoPki pki = topology.pki();
    if (pki == null) {
      out.printf("  source     MariaDB    %s  (user %s, password %s)%n", topology.sourceJdbcUrl(),
          topology.source().rootUser(), topology.source().rootPassword());
    } else {
      out.printf("  source     MariaDB    %s  (user %s, password in %s; TLS only, the relay checks its certificate)%n",
          topology.sourceJdbcUrl(), topology.source().rootUser(), topology.sourcePasswordFile());
    }
    out.printf("  target     PostgreSQL %s, schema %s  (user %s)%n", topology.targetJdbcUrl(), DemoSchema.DATABASE,
        topology.target().user());
    out.printf("  relay      %s/health  %s/v1/sources  %s/metrics   (config %s)%n", relay, relay, relay,
        topology.relayConfig());
    out.printf("  consumers  %s: group %s, %d partitions, checkpoints in the target's gridway_checkpoint table%n",
        String.join(", ", topology.consumers().stream().map(c -> c.name() + " (" + c.config().getFileName() + ")").toList()),
        DemoTopology.GROUP, run.partitions());
    out.printf("  admin      %s  (user admin, password in %s)%n", topology.adminUrl(), topology.adminPasswordFile());
    String zkTls = pki == null ? "" : " --zk-ca-file " + pki.zkTls().caFile() + " --zk-key-store " + pki.zkTls().keyStoreFile();
    out.printf("  cluster    ZooKeeper %s, Helix cluster %s:  gridway cluster status --zk %s --cluster %s%s%n",
        topology.zkConnectString(), DemoTopology.CLUSTER, topology.zkConnectString(), DemoTopology.CLUSTER, zkTls);
    if (pki != null) {
      printTls(pki, relay, out);
    }
    out.printf("  files      %s%s%n", dir, run.keep() ? " (kept: --keep)" : " (deleted at the end; --keep keeps them)");
    if (log != null) {
      out.printf("  log        %s%n", log);
    }
    out.printf("  workload   %s transactions/s of inserts, updates and deletes on %s, %s%n", fmt(run.rate()),
        String.join(", ", DemoSchema.TABLES.stream().map(t -> DemoSchema.DATABASE + "." + t.name()).toList()),
        (run.duration() == null ? "until Enter or Ctrl-C" : "for " + run.duration().toSeconds() + " s")
            + " (Enter ends it early and compares; Ctrl-C stops without comparing)");
    out.println();
    out.flush();
  }

  /** Where the CA, the client certificate and the token are, and a request that uses all three. */
  private static void printTls(DemoPki pki, String relay, PrintWriter out) {
    out.printf("  tls        CA certificate %s (every server's certificate chains to it; private keys in %s)%n",
        pki.caFile(), pki.dir());
    out.printf("             relay: client certificate %s, key %s, bearer token in %s%n", pki.client().certFile(),
        pki.client().keyFile(), pki.tokenFile());
    out.printf("  try        curl --cacert %s --cert %s --key %s -H \"Authorization: Bearer $(cat %s)\" %s/v1/sources%n",
        pki.caFile(), pki.client().certFile(), pki.client().keyFile(), pki.tokenFile(), relay);
  }

  private static String fmt(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
