package io.gridway.applier.jdbc;

import static org.awaitility.Awaitility.await;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.GridwayConsumer;
import io.gridway.applier.jdbc.JdbcService;
import io.gridway.core.event.Scn;
import io.gridway.relay.Relay;
import io.gridway.relay.RelayConfig;
import io.gridway.testkit.PrivateMariaDb;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real path of the policy ITs: a MariaDB binlog → an in-process relay (with a fetch policy) → the consumer
 * service's JDBC wiring ({@link JdbcService}, with an apply policy) → a MariaDB target.
 */
final class Pipelines {
  private static final AtomicLong SERVER_IDS = new AtomicLong(9000 + (ProcessHandle.current().pid() % 1000) * 20);

  private Pipelines() {}

  /** A relay of source {@code sourceId} reading {@code database.*} from the binlog's end now, one partition. */
  static Relay relay(PrivateMariaDb db, String database, String sourceId, Path fetchPolicy, Path dir)
      throws IOException, SQLException, InterruptedException {
    return relay(db, database, sourceId, fetchPolicy, dir, 1);
  }

  /** The same with {@code partitions} partitions (without a fetch policy: rows by primary-key hash, DDL to all). */
  static Relay relay(PrivateMariaDb db, String database, String sourceId, Path fetchPolicy, Path dir, int partitions)
      throws IOException, SQLException, InterruptedException {
    Path password = dir.resolve(sourceId + "-repl.pw");
    Files.writeString(password, db.replicationPassword() + "\n");
    String yaml = """
        source:
          partitions: %d
          mysql:
            source: %s
            host: %s
            port: %d
            user: %s
            passwordFile: %s
            serverId: %d
            start: %s
            include: ['%s.*']
            heartbeatInterval: 300ms
            reconnectBackoffMax: 300ms
        http:
          port: 0
          ioThreads: 1
        """.formatted(partitions, sourceId, db.host(), db.port(), db.replicationUser(), password, SERVER_IDS.incrementAndGet(),
        endOfBinlog(db), database);
    if (fetchPolicy != null) {
      yaml += "policy:\n  files: [" + fetchPolicy + "]\n  reloadInterval: 500ms\n";
    }
    Relay relay = new Relay(RelayConfig.parse(yaml, sourceId + " relay"), Clock.systemUTC());
    relay.start();
    return relay;
  }

  static URI uri(Relay relay) {
    return URI.create("http://127.0.0.1:" + relay.port());
  }

  /** A consumer of a relay's partition 0 applying into {@code target.database}, as {@code ConsumerMain} wires it. */
  record Consumer(GridwayConsumer consumer, JdbcService jdbc) implements AutoCloseable {
    ApplyPolicies policies() {
      return jdbc.policies();
    }

    @Override
    public void close() {
      consumer.close();
      jdbc.close();
    }
  }

  static Consumer consumer(Relay relay, String sourceId, String group, PrivateMariaDb target, String database,
      Path applyPolicy, String origin, Path dir) throws IOException {
    Path password = dir.resolve(group + "-target.pw");
    Files.writeString(password, target.rootPassword() + "\n");
    ConsumerConfig config = ConsumerConfig.builder(sourceId).relays(List.of(uri(relay))).group(group).partitions(0)
        .batchMaxWait(Duration.ofMillis(5)).build();
    JdbcTargetConfig jdbc = new JdbcTargetConfig(target.jdbcUrl(database), target.rootUser(), password, null, null, null,
        null, applyPolicy, origin);
    JdbcService service = JdbcService.start(config, jdbc, new SimpleMeterRegistry());
    GridwayConsumer consumer = GridwayConsumer.builder(config).checkpointStore(service.store()).handler(service.applier())
        .build();
    consumer.start();
    return new Consumer(consumer, service);
  }

  /** Every row of a table, ordered by its first column, as "v1|v2|…": what the ITs compare. */
  static List<String> rows(PrivateMariaDb db, String database, String table) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.connect(database); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
      ResultSetMetaData meta = rs.getMetaData();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /** Runs each statement in its own transaction. */
  static void execute(PrivateMariaDb db, String database, String... statements) throws SQLException {
    db.execute(database, statements);
  }

  /** Replaces a file atomically, so a policy watcher never reads half of it. */
  static void replace(Path file, String content) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".new");
    Files.writeString(temp, content);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Waits until the relay has processed the server's binlog up to its end now. */
  static void awaitReadToEnd(Relay relay, PrivateMariaDb db) throws SQLException {
    String[] end = endOfBinlog(db).split(":");
    String file = end[0];
    Scn scn = Scn.ofBinlog(Long.parseLong(file.substring(file.lastIndexOf('.') + 1)), Long.parseLong(end[1]));
    await().atMost(Duration.ofSeconds(30)).until(() -> Long.compareUnsigned(relay.buffer().processedScn(), scn.value()) >= 0);
  }

  private static String endOfBinlog(PrivateMariaDb db) throws SQLException {
    try (Connection c = db.connect(""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      return rs.getString(1) + ":" + rs.getLong(2);
    }
  }
}
