package io.gridway.fetcher.mysql;

import io.gridway.testkit.PrivateMariaDb;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Inserts small transactions into {@code t(id BIGINT PRIMARY KEY, payload VARCHAR(100))} on a thread of its
 * own until stopped, riding out server restarts (a transaction whose commit fails may or may not have
 * committed: the table, not this writer, is the truth). For tests.
 */
final class Writer {
  private final PrivateMariaDb db;
  private final String database;
  private final AtomicLong ids = new AtomicLong();
  private final Thread thread;
  private volatile boolean stop;

  Writer(PrivateMariaDb db, String database) {
    this.db = db;
    this.database = database;
    this.thread = new Thread(this::run, "test-writer");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!stop) {
      try (Connection c = db.connect(database);
          PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, payload) VALUES (?, ?)")) {
        c.setAutoCommit(false);
        while (!stop) {
          int rows = 1 + ThreadLocalRandom.current().nextInt(3);
          for (int i = 0; i < rows; i++) {
            long id = ids.incrementAndGet();
            insert.setLong(1, id);
            insert.setString(2, "row " + id);
            insert.executeUpdate();
          }
          c.commit();
          Thread.sleep(2);
        }
      } catch (SQLException e) {
        pause(); // the server is restarting or our connection was killed: reconnect
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void stop() throws InterruptedException {
    stop = true;
    thread.join(30_000);
  }
}
