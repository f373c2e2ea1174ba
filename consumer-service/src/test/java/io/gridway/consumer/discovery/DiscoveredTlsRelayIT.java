package io.gridway.consumer.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gridway.cluster.ControllerHost;
import io.gridway.cluster.ZkConfig;
import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.consumer.PartitionStatus;
import io.gridway.consumer.Window;
import io.gridway.consumer.checkpoint.MemoryCheckpointStore;
import io.gridway.consumer.service.DiscoveredRelays;
import io.gridway.core.event.ChangeEvent;
import io.gridway.testkit.PrivateMariaDb;
import io.gridway.testkit.TestPki;
import io.gridway.testkit.ZooKeeperExtension;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relay discovery with TLS (docs/security.md, issue 22 item 2), end to end: a relay in cluster mode whose HTTP API
 * serves TLS and wants a token advertises {@code https://127.0.0.1:port} in Helix; a consumer with {@code discovery:},
 * the CA file and the token finds it through the external view and reads the rows over HTTPS. A relay without TLS in
 * another cluster advertises {@code http://…}; the same consumer settings discovering it refuse it, naming it, and never
 * send it a request (so the token never travels in clear text). Real relay JVMs, real ZooKeeper and Helix, certificates
 * made by the test.
 */
@Timeout(240)
class DiscoveredTlsRelayIT {
  @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.dedicated();
  private static final PrivateMariaDb DB = PrivateMariaDb.shared();
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String TOKEN = "discovered-relay-token-for-tests";

  @TempDir Path dir;

  @Test
  void aTlsConsumerPullsFromTheHttpsRelayItDiscoversAndRefusesADiscoveredPlainOne() throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki"));
    TestPki.Issued certificate = pki.server("relay", "127.0.0.1");
    Path token = Files.writeString(dir.resolve("token"), TOKEN + "\n");
    String auth = "auth: {tokens: [{name: app, tokenFile: " + token + "}]}";
    String database = DB.createDatabase("tlsdiscovery");
    DB.execute(database, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(40))", "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(40))");
    String start = SourceTables.endOfBinlog(DB);
    String zkConnect = ZK.server().connectString();
    ZkConfig zk = ZkConfig.external(zkConnect);
    String secureCluster = "gw" + ProcessHandle.current().pid() + "https";
    String plainCluster = "gw" + ProcessHandle.current().pid() + "http";
    List<RelayJvm> relays = new ArrayList<>();
    ExecutorService starter = Executors.newSingleThreadExecutor();
    Future<RelayJvm> plainStart = null;
    try (ControllerHost secureController = ControllerHost.start(zk, secureCluster, "controller1");
        ControllerHost plainController = ControllerHost.start(zk, plainCluster, "controller1")) {
      await().atMost(PATIENCE).until(() -> secureController.isLeader() && plainController.isLeader());
      // the two relay JVMs start side by side
      plainStart = starter.submit(() -> RelayJvm.start(new RelayJvm.Setup(DB, database, start, zkConnect, plainCluster,
          auth), "r1", dir.resolve("plain")));
      RelayJvm secure = RelayJvm.start(new RelayJvm.Setup(DB, database, start, zkConnect, secureCluster,
          "tls: {certFile: " + certificate.certFile() + ", keyFile: " + certificate.keyFile() + "}, " + auth),
          "r1", dir.resolve("secure"));
      relays.add(secure);
      RelayJvm plain = plainStart.get();
      relays.add(plain);
      assertThat(secure.uri.getScheme()).as("advertised by the TLS relay").isEqualTo("https");
      assertThat(secure.uri.getHost()).isEqualTo("127.0.0.1");
      assertThat(plain.uri.getScheme()).as("advertised by the plain relay").isEqualTo("http");
      for (int id = 1; id <= 40; id++) {
        DB.execute(database, "INSERT INTO a VALUES (" + id + ", 'v" + id + "')");
      }
      Set<Long> expected = LongStream.rangeClosed(1, 40).boxed().collect(Collectors.toSet());

      // found through the external view, read over HTTPS with the CA file and the token
      Set<Long> received = ConcurrentHashMap.newKeySet();
      try (GridwayConsumer consumer = discovering(secureCluster, "secure", pki.caFile(), token, received, new AtomicLong())) {
        await().atMost(PATIENCE).until(() -> received.containsAll(expected));
        for (int p = 0; p < 2; p++) {
          int partition = p;
          await().atMost(PATIENCE).until(() -> consumer.status(partition).state() == PartitionStatus.State.RUNNING);
          assertThat(consumer.status(p).relay()).as("partition %d pulls from", p).isEqualTo(secure.uri);
        }
      }
      assertThat(received).isEqualTo(expected);

      // a discovered plain relay: refused by name on every partition, not one request sent
      AtomicLong windows = new AtomicLong();
      String refusal = "relay " + plain.uri + " is plain http and this consumer is configured for TLS (tls): refusing it";
      try (GridwayConsumer consumer = discovering(plainCluster, "plain", pki.caFile(), token, ConcurrentHashMap.newKeySet(),
          windows)) {
        for (int p = 0; p < 2; p++) {
          int partition = p;
          await().atMost(PATIENCE).until(() -> refusal.equals(consumer.status(partition).detail()));
          assertThat(consumer.status(p).state()).isEqualTo(PartitionStatus.State.RECONNECTING);
          assertThat(consumer.status(p).relay()).isEqualTo(plain.uri);
        }
      }
      assertThat(windows.get()).isZero();
      HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain.uri.resolve("/metrics"))
          .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).as("the plain relay answered no event request and refused no token")
          .contains("# TYPE gridway_relay_http_connections").doesNotContain("endpoint=\"events\"")
          .doesNotContain("endpoint=\"auth\"");
    } finally {
      if (plainStart != null) {
        try {
          RelayJvm plain = plainStart.get();
          if (!relays.contains(plain)) {
            relays.add(plain);
          }
        } catch (ExecutionException e) {
          // it did not start: nothing to stop
        }
      }
      starter.shutdown();
      for (RelayJvm relay : relays) {
        relay.kill();
      }
    }
  }

  /** A consumer of both partitions of source {@code s} that finds its relays in {@code cluster}, with TLS and a token. */
  private static GridwayConsumer discovering(String cluster, String group, Path caFile, Path token, Set<Long> ids,
      AtomicLong windows) {
    ConsumerConfig config = ConsumerConfig.builder("s").group(group).partitions(0, 1)
        .discovery(new ConsumerConfig.Discovery(ZK.server().connectString(), cluster, Duration.ofSeconds(5)))
        .mode(ConsumerConfig.Mode.STREAM).waitTime(Duration.ofMillis(200)).reconnectBackoff(Duration.ofMillis(50))
        .tls(new ConsumerConfig.Tls(caFile.toString(), null, null)).auth(new ConsumerConfig.Auth(token.toString(), null))
        .build();
    return GridwayConsumer.builder(config).checkpointStore(new MemoryCheckpointStore())
        .relayEndpoints(DiscoveredRelays.open(config.discovery(), config.source(), config.group()))
        .handler(batch -> {
          for (Window w : batch.windows()) {
            windows.incrementAndGet();
            for (ChangeEvent e : w.events()) {
              ids.add(((Number) e.after().get(0)).longValue());
            }
          }
        }).build().start();
  }
}
