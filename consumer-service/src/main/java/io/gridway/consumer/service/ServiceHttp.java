package io.gridway.consumer.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer service's own HTTP endpoints, for systemd/Kubernetes probes and Prometheus:
 *
 * <ul>
 *   <li>{@code GET /health}, {@code /health/live}: 200 while the process runs its loop (liveness: restart it if not)
 *   <li>{@code GET /health/ready}: 200 when every partition it owns is applying or idle and caught up, else 503; the
 *       body (JSON) names each partition's state and, when not ready, why
 *   <li>{@code GET /metrics}: every meter of the service in the Prometheus text format
 * </ul>
 *
 * <p>One thread of its own serves them (a scrape must not wait on an apply lane). Thread-safe; {@link #close()} it.
 */
final class ServiceHttp implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceHttp.class);
  private final HttpServer server;
  private final ExecutorService thread;

  private ServiceHttp(HttpServer server, ExecutorService thread) {
    this.server = server;
    this.thread = thread;
  }

  /**
   * Listens on {@code http.host:http.port} at once (before the service's peers are reachable, so a probe sees "not
   * ready: starting" rather than a refused connection).
   *
   * @throws IllegalArgumentException naming {@code http.port} when it cannot bind (a configuration to change)
   */
  static ServiceHttp start(ServiceConfig.Http http, PrometheusMeterRegistry metrics, Supplier<Readiness> readiness) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(http.host(), http.port()), 16);
    } catch (IOException e) {
      throw new IllegalArgumentException("http.port: cannot listen on " + http.host() + ":" + http.port() + ": "
          + e.getMessage(), e);
    }
    server.createContext("/health", exchange -> {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/health") || path.equals("/health/live")) {
        send(exchange, 200, "application/json", "{\"status\":\"UP\"}\n");
      } else if (path.equals("/health/ready")) {
        Readiness r = readiness.get();
        send(exchange, r.ready() ? 200 : 503, "application/json", r.json());
      } else {
        send(exchange, 404, "text/plain", "not found: " + path + " (try /health, /health/live, /health/ready, /metrics)\n");
      }
    });
    server.createContext("/metrics", exchange -> send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8",
        metrics.scrape()));
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "gridway-consumer-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(thread);
    server.start();
    LOG.info("consumer: /health, /health/ready and /metrics on http://{}:{}", http.host(), server.getAddress().getPort());
    return new ServiceHttp(server, thread);
  }

  /** The port it listens on (the chosen one when configured 0). */
  int port() {
    return server.getAddress().getPort();
  }

  private static void send(HttpExchange exchange, int status, String type, String body) {
    try (exchange) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the client went away; HttpServer logs and closes the exchange
    }
  }

  @Override
  public void close() {
    server.stop(0);
    thread.shutdownNow();
  }
}
