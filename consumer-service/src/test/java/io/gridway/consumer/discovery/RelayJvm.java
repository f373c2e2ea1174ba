package io.gridway.consumer.discovery;

import static org.awaitility.Awaitility.await;

import io.gridway.testkit.PrivateMariaDb;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code RelayMain} in a JVM of its own, in cluster mode, reading {@code database.*} of the private MariaDB from a
 * fixed binlog position; killed with SIGKILL ({@code destroyForcibly}) like a lost VM. Its directory is its "disk".
 */
final class RelayJvm {
  private static final Pattern ADVERTISED = Pattern.compile("gridway relay advertised as (https?://\\S+)");
  private static final AtomicLong SERVER_IDS = new AtomicLong(9000 + (ProcessHandle.current().pid() % 1000) * 40);

  private final Process process;
  final URI uri;
  final String instance;

  private RelayJvm(Process process, URI uri, String instance) {
    this.process = process;
    this.uri = uri;
    this.instance = instance;
  }

  /**
   * Where and what every relay of the test reads, and the cluster it joins.
   *
   * @param http more entries of the relay's {@code http} mapping in YAML flow style, such as {@code tls: {…}, auth: {…}}
   *     (docs/security.md); empty for a plain API without tokens
   */
  record Setup(PrivateMariaDb db, String database, String start, String zk, String cluster, String http) {
    Setup(PrivateMariaDb db, String database, String start, String zk, String cluster) {
      this(db, database, start, zk, cluster, "");
    }
  }

  static RelayJvm start(Setup setup, String instance, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path password = dir.resolve("repl.pw");
    Files.writeString(password, setup.db().replicationPassword() + "\n");
    Path policy = dir.resolve("split.yaml"); // both tables by key over both partitions
    Files.writeString(policy, """
        name: split
        version: 1
        include: ['%1$s.*']
        rules:
          - name: by-key
            tables: [%1$s.a, %1$s.b]
            partition: {key-hash: 2}
        """.formatted(setup.database()));
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, """
        source:
          partitions: 2
          mysql:
            source: s
            host: %s
            port: %d
            user: %s
            passwordFile: %s
            serverId: %d
            start: %s
            include: [%s.*]
            heartbeatInterval: 300ms
            reconnectBackoffMax: 300ms
        buffer: {capacity: 64MiB, maxWindow: 4MiB}
        http: {port: 0, ioThreads: 1, shutdownGrace: 0s, stream: {heartbeat: 200ms}%s}
        policy: {files: [%s]}
        positionFlush: 50ms
        cluster:
          zk: %s
          sessionTimeout: 5s
          name: %s
          instance: %s
          replicas: 2
        """.formatted(setup.db().host(), setup.db().port(), setup.db().replicationUser(), password,
        SERVER_IDS.incrementAndGet(), setup.start(), setup.database(), setup.http().isEmpty() ? "" : ", " + setup.http(),
        policy, setup.zk(), setup.cluster(), instance));
    Path log = dir.resolve("relay.log");
    long before = Files.exists(log) ? Files.size(log) : 0;
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx192m", "-XX:MaxDirectMemorySize=192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), "io.gridway.relay.RelayMain", config.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    String[] advertised = {null};
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() -> {
      String text = Files.readString(log);
      if (!process.isAlive()) {
        throw new AssertionError("relay " + instance + " exited with " + process.exitValue() + ": " + text);
      }
      Matcher m = ADVERTISED.matcher(text);
      while (m.find()) {
        if (m.start() >= before) {
          advertised[0] = m.group(1);
        }
      }
      return advertised[0] != null;
    });
    return new RelayJvm(process, URI.create(advertised[0]), instance);
  }

  /** SIGKILL: no shutdown hook, no last position write, no graceful leave. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(20, TimeUnit.SECONDS);
  }

  /** SIGTERM and wait: a graceful stop. */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      kill();
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }
}
