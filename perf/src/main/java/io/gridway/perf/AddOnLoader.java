package io.gridway.perf;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * Add-ons in a perf process, as {@code gridway consumer} loads them (the consumer service's {@code AddOns}, package-private
 * there): the jars of {@code <dir>/<name>/*.jar}, {@code dir} from {@code -Dgridway.addons=}, in one class loader of their
 * own whose parent is the process's, made the context class loader so that {@code applier.type} finds their providers.
 * The Phoenix benchmark points it at the unpacked add-on tarball, so its consumers apply exactly as deployed ones.
 */
final class AddOnLoader {
  static final String PROPERTY = "gridway.addons";

  private AddOnLoader() {}

  /** With {@code -Dgridway.addons=} set: installs the add-ons' loader as this thread's context loader and returns it. */
  static ClassLoader install() {
    String dir = System.getProperty(PROPERTY);
    if (dir == null) {
      return Thread.currentThread().getContextClassLoader();
    }
    List<URL> jars = new ArrayList<>();
    try (Stream<Path> addOns = Files.list(Path.of(dir))) {
      for (Path addOn : addOns.filter(Files::isDirectory).sorted().toList()) {
        try (Stream<Path> files = Files.list(addOn)) {
          for (Path jar : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
            jars.add(jar.toUri().toURL());
          }
        }
      }
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + dir + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + dir + ": cannot list the add-ons: " + e, e);
    }
    if (jars.isEmpty()) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + dir + ": no add-on jars in its subdirectories");
    }
    ClassLoader loader = new URLClassLoader("gridway-addons", jars.toArray(URL[]::new), AddOnLoader.class.getClassLoader());
    Thread.currentThread().setContextClassLoader(loader); // threads started from here on inherit it
    return loader;
  }

  /** The JDBC driver in {@code loader} that accepts {@code url} (DriverManager does not search a child loader). */
  static Driver driver(ClassLoader loader, String url) throws SQLException {
    for (Driver d : ServiceLoader.load(Driver.class, loader)) {
      if (d.acceptsURL(url)) {
        return d;
      }
    }
    throw new SQLException("no JDBC driver for " + url + " in the add-ons of -D" + PROPERTY + "=" + System.getProperty(PROPERTY));
  }
}
