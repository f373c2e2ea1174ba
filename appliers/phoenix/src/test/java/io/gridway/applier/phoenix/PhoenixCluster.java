package io.gridway.applier.phoenix;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;

/**
 * The one HBase mini cluster (with Phoenix) of this test JVM: started by the first test that asks, on loopback and
 * random ports, on the local file system (no HDFS), and stopped when the JVM exits. Starting it costs 10–30 s and
 * ~500 MB, which is why every IT of the module shares it (each IT uses its own tables).
 */
public final class PhoenixCluster {
  private static PhoenixCluster instance;

  private final HBaseTestingUtility util;
  private final String url;

  private PhoenixCluster() throws Exception {
    long started = System.nanoTime();
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.master.info.port", "-1");
    conf.set("hbase.regionserver.info.port", "-1");
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.master.hostname", "127.0.0.1");
    conf.set("hbase.regionserver.hostname", "127.0.0.1");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false); // WALs on the local file system
    conf.setInt("hbase.regionserver.handler.count", 10);
    conf.set("phoenix.sequence.saltBuckets", "0");
    util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
    url = "jdbc:phoenix:127.0.0.1:" + util.getZkCluster().getClientPort();
    long up = System.nanoTime();
    try (Connection c = connect()) {
      c.getMetaData(); // the first connection creates Phoenix's SYSTEM tables
    }
    System.out.printf("phoenix mini cluster: HBase up in %.1f s, Phoenix SYSTEM tables in %.1f s, %s%n",
        (up - started) / 1e9, (System.nanoTime() - up) / 1e9, url);
    Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "phoenix-mini-cluster-stop"));
  }

  /** The cluster, started on first use. */
  public static synchronized PhoenixCluster get() throws Exception {
    if (instance == null) {
      instance = new PhoenixCluster();
    }
    return instance;
  }

  /** {@code jdbc:phoenix:127.0.0.1:<zk port>}: for this JVM and for consumer processes started by a test. */
  public String url() {
    return url;
  }

  public Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("phoenix.sequence.saltBuckets", "0");
    return DriverManager.getConnection(url, p);
  }

  private void stop() {
    try {
      util.shutdownMiniCluster();
    } catch (Exception e) {
      System.err.println("phoenix mini cluster: stop failed: " + e);
    }
  }
}
