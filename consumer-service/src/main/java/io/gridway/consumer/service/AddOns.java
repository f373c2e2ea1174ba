package io.gridway.consumer.service;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Optional appliers with large dependency trees (the Phoenix client, ~150 MB) ship as add-ons outside the
 * distribution's {@code lib/}: {@code addons/<name>/*.jar} under {@code gridway.home} (or the directory {@code
 * gridway.addons} names). The consumer service puts them in one class loader of their own (parent: the service's),
 * made the context class loader before the configuration is read, so {@code applier.type} finds their providers
 * through {@link io.gridway.core.plugin.Plugins} and nothing else in Gridway sees their classes. A provider only
 * registers its name; its heavy classes load when the configuration chooses it.
 */
final class AddOns {
  private AddOns() {}

  /** Installs the add-on loader when add-ons exist; returns the jars it loads from (empty: nothing changed). */
  static List<Path> install() {
    Path dir = directory();
    if (dir == null || !Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> jars = new ArrayList<>();
    try (Stream<Path> addOns = Files.list(dir)) {
      for (Path addOn : addOns.filter(Files::isDirectory).sorted().toList()) {
        try (Stream<Path> files = Files.list(addOn)) {
          files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list the add-ons in " + dir + ": " + e.getMessage(), e);
    }
    if (jars.isEmpty()) {
      return jars;
    }
    URL[] urls = new URL[jars.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = jars.get(i).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("add-on jar " + jars.get(i) + ": " + e.getMessage(), e);
      }
    }
    ClassLoader loader = new URLClassLoader("gridway-addons", urls, AddOns.class.getClassLoader());
    Thread.currentThread().setContextClassLoader(loader); // threads started from here on inherit it
    return jars;
  }

  private static Path directory() {
    String explicit = System.getProperty("gridway.addons");
    if (explicit != null) {
      return Path.of(explicit);
    }
    String home = System.getProperty("gridway.home");
    return home == null ? null : Path.of(home, "addons");
  }
}
