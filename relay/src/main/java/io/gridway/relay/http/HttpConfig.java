package io.gridway.relay.http;

import io.gridway.tls.ServerTlsSettings;

import io.gridway.core.config.ByteSize;
import io.gridway.core.config.SecretFile;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The HTTP server's settings ({@code http:} in the relay's YAML).
 *
 * @param host the address to bind; loopback unless the operator opens it up
 * @param port the port; 0 picks a free one (the relay prints it)
 * @param ioThreads Netty event-loop threads serving connections
 * @param limits how much the server accepts at once
 * @param stream settings of {@code stream=true} responses
 * @param shutdownGrace how long in-flight responses get to end (at a window boundary) on shutdown
 * @param tls serve HTTPS instead of plain HTTP (docs/security.md), or null
 * @param auth require a bearer token on {@code /metrics} and the {@code /v1} API, or null (no authentication)
 */
public record HttpConfig(String host, Integer port, Integer ioThreads, Limits limits, Stream stream, Duration shutdownGrace,
    ServerTlsSettings tls, Auth auth) {

  public HttpConfig {
    host = host == null ? "127.0.0.1" : host;
    port = port == null ? 8080 : port;
    ioThreads = ioThreads == null ? Math.max(1, Runtime.getRuntime().availableProcessors()) : ioThreads;
    limits = limits == null ? new Limits(null, null, null, null, null, null) : limits;
    stream = stream == null ? new Stream(null, null, null) : stream;
    shutdownGrace = shutdownGrace == null ? Duration.ofSeconds(10) : shutdownGrace;
    if (host.isBlank()) {
      throw new IllegalArgumentException("host is empty");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535 (0 picks a free port), not " + port);
    }
    if (ioThreads < 1 || ioThreads > 256) {
      throw new IllegalArgumentException("ioThreads must be 1..256, not " + ioThreads);
    }
    if (shutdownGrace.isNegative() || shutdownGrace.toMinutes() > 10) {
      throw new IllegalArgumentException("shutdownGrace must be 0s..10m, not " + shutdownGrace);
    }
  }

  /** Plain HTTP, no authentication. */
  public HttpConfig(String host, Integer port, Integer ioThreads, Limits limits, Stream stream, Duration shutdownGrace) {
    this(host, port, ioThreads, limits, stream, shutdownGrace, null, null);
  }

  /** Defaults everywhere: loopback, port 8080. */
  public static HttpConfig defaults() {
    return new HttpConfig(null, null, null, null, null, null);
  }

  /** The same settings on another port (tests and benchmarks use 0). */
  public HttpConfig withPort(int newPort) {
    return new HttpConfig(host, newPort, ioThreads, limits, stream, shutdownGrace, tls, auth);
  }

  /** The same settings with other TLS and authentication settings. */
  public HttpConfig withSecurity(ServerTlsSettings newTls, Auth newAuth) {
    return new HttpConfig(host, port, ioThreads, limits, stream, shutdownGrace, newTls, newAuth);
  }

  /** The URL scheme clients use: {@code https} with {@link #tls}, else {@code http}. */
  public String scheme() {
    return tls == null ? "http" : "https";
  }

  /**
   * Bearer-token authentication: a request to {@code /metrics} or the {@code /v1} API without a known token gets 401;
   * a token may be limited to some sources (403 for the others). {@code /health} stays open for probes. Tokens are
   * read from files or environment variables at start and kept only as SHA-256 digests.
   *
   * @param tokens who may read
   */
  public record Auth(List<Token> tokens) {
    public Auth {
      if (tokens == null || tokens.isEmpty()) {
        throw new IllegalArgumentException("auth.tokens: at least one token (omit auth to turn authentication off)");
      }
      tokens = List.copyOf(tokens);
      Set<String> names = new HashSet<>();
      for (Token token : tokens) {
        if (!names.add(token.name())) {
          throw new IllegalArgumentException("auth.tokens: two tokens named '" + token.name() + "'");
        }
      }
    }
  }

  /**
   * One client's token.
   *
   * @param name who holds it (logs and metrics name the token by this, never by value)
   * @param tokenFile a file holding the token (trailing newline ignored)
   * @param tokenEnv an environment variable holding the token
   * @param sources the sources this token may read; null or empty for all
   */
  public record Token(String name, String tokenFile, String tokenEnv, List<String> sources) {
    public Token {
      if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")) {
        throw new IllegalArgumentException("auth.tokens.name: '" + name + "' must be 1-64 of [A-Za-z0-9_.-]");
      }
      SecretFile.requireOne(tokenFile, tokenEnv, "auth.tokens[" + name + "]", "tokenFile", "tokenEnv");
      sources = sources == null ? List.of() : List.copyOf(sources);
    }
  }

  /**
   * What the server accepts at once. Past a limit a request gets 429 with a problem document.
   *
   * @param maxConnections open connections; more are closed on accept
   * @param maxRequests event requests (long-poll and stream) in flight
   * @param maxStreams {@code stream=true} responses open (counted in {@code maxRequests} too)
   * @param maxResponseBytes the largest {@code maxBytes} a request may ask for
   * @param defaultResponseBytes {@code maxBytes} when a request does not say
   * @param maxWait the longest {@code waitMs} a request may ask for
   */
  public record Limits(
      Integer maxConnections, Integer maxRequests, Integer maxStreams, ByteSize maxResponseBytes,
      ByteSize defaultResponseBytes, Duration maxWait) {
    public Limits {
      maxConnections = maxConnections == null ? 1024 : maxConnections;
      maxRequests = maxRequests == null ? 512 : maxRequests;
      maxStreams = maxStreams == null ? 64 : maxStreams;
      maxResponseBytes = maxResponseBytes == null ? ByteSize.ofMebibytes(64) : maxResponseBytes;
      defaultResponseBytes = defaultResponseBytes == null ? ByteSize.ofMebibytes(1) : defaultResponseBytes;
      maxWait = maxWait == null ? Duration.ofSeconds(60) : maxWait;
      if (maxConnections < 1 || maxConnections > 1_000_000) {
        throw new IllegalArgumentException("maxConnections must be 1..1000000, not " + maxConnections);
      }
      if (maxRequests < 1 || maxRequests > maxConnections) {
        throw new IllegalArgumentException("maxRequests must be 1..maxConnections (" + maxConnections + "), not " + maxRequests);
      }
      if (maxStreams < 0 || maxStreams > maxRequests) {
        throw new IllegalArgumentException("maxStreams must be 0..maxRequests (" + maxRequests + "), not " + maxStreams);
      }
      if (maxResponseBytes.bytes() < 1024 || maxResponseBytes.bytes() > (1L << 30)) {
        throw new IllegalArgumentException("maxResponseBytes must be 1KiB..1GiB, not " + maxResponseBytes);
      }
      if (defaultResponseBytes.bytes() < 1 || defaultResponseBytes.compareTo(maxResponseBytes) > 0) {
        throw new IllegalArgumentException("defaultResponseBytes must be 1..maxResponseBytes (" + maxResponseBytes + "), not " + defaultResponseBytes);
      }
      if (maxWait.isNegative() || maxWait.toMinutes() > 10) {
        throw new IllegalArgumentException("maxWait must be 0s..10m, not " + maxWait);
      }
    }
  }

  /**
   * Stream responses.
   *
   * @param heartbeat how often an idle stream gets a HEARTBEAT frame (unless the request's waitMs says otherwise)
   * @param batchBytes how much a stream copies from the buffer per write (at least one whole window)
   * @param writeBufferHighWater bytes queued in Netty per connection before the stream stops copying
   *     and waits for the client (TCP back-pressure); a stalled client costs about this plus one batch
   */
  public record Stream(Duration heartbeat, ByteSize batchBytes, ByteSize writeBufferHighWater) {
    public Stream {
      heartbeat = heartbeat == null ? Duration.ofSeconds(1) : heartbeat;
      batchBytes = batchBytes == null ? new ByteSize(256 * 1024) : batchBytes;
      writeBufferHighWater = writeBufferHighWater == null ? new ByteSize(256 * 1024) : writeBufferHighWater;
      if (heartbeat.toMillis() < 10 || heartbeat.toMinutes() > 10) {
        throw new IllegalArgumentException("heartbeat must be 10ms..10m, not " + heartbeat);
      }
      if (batchBytes.bytes() < 1024 || batchBytes.bytes() > (64L << 20)) {
        throw new IllegalArgumentException("batchBytes must be 1KiB..64MiB, not " + batchBytes);
      }
      if (writeBufferHighWater.bytes() < 1024 || writeBufferHighWater.bytes() > (64L << 20)) {
        throw new IllegalArgumentException("writeBufferHighWater must be 1KiB..64MiB, not " + writeBufferHighWater);
      }
    }
  }
}
