package io.gridway.admin;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The UI's files, from this jar ({@code io/gridway/admin/ui/}) and chart.js from its webjar: {@code /} is {@code
 * index.html}, {@code /ui/<file>} a UI file, {@code /vendor/chart.umd.min.js} chart.js. Only known names are served
 * (no path from the request reaches the class loader unchecked). Cached after the first read. Thread-safe.
 */
final class StaticFiles {
  private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
      "css", "text/css; charset=utf-8", "json", "application/json");
  private final Map<String, byte[]> cache = new ConcurrentHashMap<>();
  private final String chartJs;

  StaticFiles() {
    Properties p = new Properties();
    try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream("META-INF/maven/org.webjars.npm/chart.js/pom.properties")) {
      if (in == null) {
        throw new IllegalStateException("the chart.js webjar is not on the classpath");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    chartJs = "META-INF/resources/webjars/chart.js/" + p.getProperty("version") + "/dist/chart.umd.min.js";
  }

  /** The response for {@code path}, or {@code null} when there is no such file. */
  Response get(String path) {
    String resource;
    if (path.equals("/") || path.equals("/index.html")) {
      resource = "io/gridway/admin/ui/index.html";
    } else if (path.equals("/vendor/chart.umd.min.js")) {
      resource = chartJs;
    } else if (path.matches("/ui/[a-z0-9-]+\\.(js|css)")) {
      resource = "io/gridway/admin/ui/" + path.substring(4);
    } else {
      return null;
    }
    byte[] body = cache.computeIfAbsent(resource, StaticFiles::read);
    if (body.length == 0) {
      return null;
    }
    String ext = resource.substring(resource.lastIndexOf('.') + 1);
    return new Response(HttpResponseStatus.OK, TYPES.get(ext), body, Map.of());
  }

  private static byte[] read(String resource) {
    try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(resource)) {
      return in == null ? new byte[0] : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
