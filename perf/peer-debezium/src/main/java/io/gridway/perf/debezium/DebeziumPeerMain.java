package io.gridway.perf.debezium;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The peer of gridway perf: the Debezium embedded engine with the MariaDB connector reading the load's
 * binlog (no snapshot; offsets and schema history in the files the properties name, under a temporary
 * directory), with a handler that only counts the row events of the load's database. Run in its own JVM by
 * the harness: {@code java -cp <this project's classpath> io.gridway.perf.debezium.DebeziumPeerMain
 * engine.properties <expected events> <timeout seconds>}.
 *
 * <p>Prints {@code RESULT events=N first=µs last=µs cpuFirst=s cpuEnd=s}: the wall clock (epoch µs) of the
 * first and the last row event handed to the handler and this process's CPU seconds at those moments;
 * exits 0, or 1 with {@code FAILED reason} (the engine stopped, or the timeout passed first).
 */
public final class DebeziumPeerMain {
  private DebeziumPeerMain() {}

  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
      props.load(in);
    }
    long expected = Long.parseLong(args[1]);
    long timeoutSeconds = Long.parseLong(args[2]);
    String dataTopics = props.getProperty("topic.prefix") + "." + props.getProperty("database.include.list") + ".";
    AtomicLong events = new AtomicLong();
    AtomicLong first = new AtomicLong();
    AtomicLong last = new AtomicLong();
    double[] cpuFirst = {-1};
    double[] cpuLast = {-1};
    String[] failure = {null};
    Object done = new Object();
    // Connect records as the connector emits them: no JSON or Avro conversion, the peer's cheapest form
    DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine = DebeziumEngine.create(Connect.class).using(props)
        .notifying(change -> {
          SourceRecord record = change.value();
          if (record.topic() == null || !record.topic().startsWith(dataTopics) || record.value() == null) {
            return; // schema changes, heartbeats, tombstones
          }
          if (events.get() == 0) {
            first.set(micros());
            cpuFirst[0] = cpuSeconds();
          }
          if (events.incrementAndGet() == expected) {
            last.set(micros());
            cpuLast[0] = cpuSeconds();
            synchronized (done) {
              done.notifyAll();
            }
          }
        })
        .using((success, message, error) -> {
          if (!success) {
            failure[0] = message + (error == null ? "" : ": " + error);
          }
          synchronized (done) {
            done.notifyAll();
          }
        })
        .build();
    ExecutorService executor = Executors.newSingleThreadExecutor();
    executor.execute(engine);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    synchronized (done) {
      while (events.get() < expected && failure[0] == null && System.nanoTime() < deadline) {
        done.wait(1000);
      }
    }
    long counted = events.get();
    engine.close();
    executor.shutdown();
    executor.awaitTermination(30, TimeUnit.SECONDS);
    if (counted < expected) {
      System.out.println("FAILED " + (failure[0] != null ? failure[0] : "timed out after " + timeoutSeconds + " s with "
          + counted + " of " + expected + " events"));
      System.exit(1);
    }
    System.out.println("RESULT events=" + counted + " first=" + first.get() + " last=" + last.get() + " cpuFirst="
        + cpuFirst[0] + " cpuEnd=" + cpuLast[0]);
    System.exit(0);
  }

  private static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  /** (utime + stime) / CLK_TCK of this process, from /proc/self/stat, as the harness reads the grid's processes. */
  private static double cpuSeconds() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
