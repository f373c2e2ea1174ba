package io.gridway.deploy.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes the demo's relay and consumer configuration files: the same YAML an operator writes (conf/relay.yaml,
 * conf/consumer.yaml), with the private servers' ports filled in. The demo loads them like {@code gridway relay}
 * and {@code gridway consumer} do, so what it runs is what the files say, and a user can read or reuse them.
 * Stateless.
 */
final class DemoConfigs {
  private DemoConfigs() {}

  /** Where the source is and what to read from it. */
  record Source(String host, int port, String user, Path passwordFile, String binlogStart) {}

  /**
   * A relay reading {@code shop.*} from {@code start} (the binlog position after the tables were created, so its
   * first events are the workload's), serving on a free loopback port. With {@code pki}: the binlog and JDBC reads
   * over TLS checked against the demo's CA and the source's name ({@code verify-identity}), and HTTPS with mutual TLS
   * and a bearer token for the demo's source.
   */
  static Path relay(Path dir, Source source, int partitions, DemoPki pki) throws IOException {
    String sourceTls = pki == null ? "" : "    tls: {mode: verify-identity, caFile: %s}\n".formatted(pki.caFile());
    String httpTls = pki == null ? "" : """
          tls: {certFile: %s, keyFile: %s, clientCaFile: %s}
          auth:
            tokens:
              - {name: demo-consumers, tokenFile: %s, sources: [%s]}
        """.formatted(pki.relay().certFile(), pki.relay().keyFile(), pki.caFile(), pki.tokenFile(),
        DemoSchema.DATABASE);
    return write(dir.resolve("relay.yaml"), """
        # The demo's relay: reads the private MariaDB's binlog into a 64 MiB off-heap buffer, serves it over HTTP.
        source:
          id: %1$s
          partitions: %2$d
          mysql:
            source: %1$s
            host: %3$s
            port: %4$d
            user: %5$s
            passwordFile: %6$s
            serverId: 5401
            start: %7$s
            include: ['%1$s.*']
            heartbeatInterval: 1s
        %9$sbuffer:
          capacity: 64MiB
          maxWindow: 8MiB
        http:
          host: 127.0.0.1
          port: 0
          shutdownGrace: 1s
        %10$spositionFile: %8$s
        """.formatted(DemoSchema.DATABASE, partitions, source.host(), source.port(), source.user(),
        source.passwordFile(), source.binlogStart(), dir.resolve("relay.position"), sourceTls, httpTls));
  }

  /** Where a consumer writes: the target's JDBC URL (with its TLS options, if any) and user. */
  record Target(String jdbcUrl, String user) {}

  /**
   * One consumer of the demo's group: Helix gives it partitions; the JDBC applier writes PostgreSQL and keeps the
   * checkpoints in the same transactions (exactly-once). With {@code pki}: the relay over HTTPS (the demo's CA, the
   * client certificate, the token) and ZooKeeper over TLS with the process's one ZooKeeper key store.
   */
  static Path consumer(Path dir, String instance, String relayUrl, String zk, String group, int partitions,
      Target target, DemoPki pki) throws IOException {
    String relayTls = pki == null ? "" : """
          tls: {caFile: %s, certFile: %s, keyFile: %s}
          auth: {tokenFile: %s}
        """.formatted(pki.caFile(), pki.client().certFile(), pki.client().keyFile(), pki.tokenFile());
    String zkTls = pki == null ? "" : "  zkTls: {caFile: %s, keyStoreFile: %s}\n".formatted(pki.zkTls().caFile(),
        pki.zkTls().keyStoreFile());
    return write(dir.resolve(instance + ".yaml"), """
        # %1$s of the demo's consumer group: Helix assigns its partitions; the JDBC applier writes PostgreSQL with
        # the checkpoint in the same transaction (gridway_checkpoint), so every change is applied exactly once.
        consumer:
          source: %2$s
          group: %3$s
          relays: [%4$s]
          pull: {waitTime: 1s}
        %10$sapplier:
          type: jdbc
          jdbc: {url: "%5$s", user: %6$s}
        cluster:
          zk: %7$s
          name: %8$s
          instance: %1$s
          partitions: %9$d
          replicas: 2
        %11$s""".formatted(instance, DemoSchema.DATABASE, group, relayUrl, target.jdbcUrl(), target.user(), zk,
        DemoTopology.CLUSTER, partitions, relayTls, zkTls));
  }

  /** A file only its owner reads (a password). */
  static Path secret(Path file, String content) throws IOException {
    Files.writeString(file, content + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static Path write(Path file, String yaml) throws IOException {
    Files.writeString(file, yaml);
    return file;
  }
}
