package io.gridway.applier.phoenix;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens Phoenix connections to one URL. Phoenix keeps one cluster connection per URL inside its driver and hands out
 * cheap per-use JDBC connections, so there is no pool. The driver is looked up through {@link java.util.ServiceLoader}
 * in the given class loader: it comes from the add-on's loader, which {@code DriverManager} would not search.
 *
 * <p>Thread-safe.
 */
final class PhoenixConnections {
  private final String url;
  private final Driver driver;
  private final Properties properties = new Properties();

  PhoenixConnections(String url, ClassLoader loader) {
    this.url = url;
    Driver found = null;
    for (Driver d : java.util.ServiceLoader.load(Driver.class, loader)) {
      try {
        if (d.acceptsURL(url)) {
          found = d;
          break;
        }
      } catch (SQLException e) {
        // a driver that cannot judge the URL is not ours
      }
    }
    if (found == null) {
      throw new IllegalArgumentException("applier.phoenix.url: no Phoenix JDBC driver on the class path for " + url
          + " (install the Phoenix add-on: deploy guide)");
    }
    this.driver = found;
  }

  Connection open() throws SQLException {
    Connection c = driver.connect(url, properties);
    if (c == null) {
      throw new SQLException("the Phoenix driver refused " + url, "08001");
    }
    return c;
  }

  String url() {
    return url;
  }
}
