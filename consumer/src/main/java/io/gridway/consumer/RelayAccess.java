package io.gridway.consumer;

import io.gridway.core.config.SecretFile;
import io.gridway.tls.TlsProviders;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.net.URI;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * How a consumer reaches its relays securely: the TLS client context built from {@link ConsumerConfig#tls()} (the
 * relay's certificate must chain to the configured CA and name the URL's host) and the bearer token of {@link
 * ConsumerConfig#auth()}. Files and variables are read once, when this is made; a file that does not load is an
 * {@link IllegalArgumentException} naming the setting. The token is never in a {@code toString} or a message.
 *
 * <p>Immutable and thread-safe.
 */
public final class RelayAccess {
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final SslContext ssl; // the pullers' (OpenSSL where it loads)
  private final SslContext jdk; // the same settings in the JDK's provider, for java.net.http clients
  private final String authorization;

  private RelayAccess(SslContext ssl, SslContext jdk, String authorization) {
    this.ssl = ssl;
    this.jdk = jdk;
    this.authorization = authorization;
  }

  /** Reads what {@code config} names, with secrets from {@code environment}. */
  public static RelayAccess of(ConsumerConfig config, Map<String, String> environment) {
    SslContext jdk = config.tls() == null ? null : clientContext(config.tls(), "tls");
    SslContext ssl = config.tls() == null ? null
        : TlsProviders.netty() == SslProvider.JDK ? jdk : pullerContext(config.tls(), "tls");
    String authorization = config.auth() == null ? null
        : "Bearer " + SecretFile.read(config.auth().tokenFile(), config.auth().tokenEnv(), "auth", environment);
    return new RelayAccess(ssl, jdk, authorization);
  }

  /** Reads what {@code config} names, with secrets from this process's environment. */
  public static RelayAccess of(ConsumerConfig config) {
    return of(config, System.getenv());
  }

  /**
   * The client TLS context for relays from the consumer's {@code tls} settings (TLS 1.2/1.3, the JDK's provider, so that
   * {@link JdkSslContext#context()} gives java.net.http clients the same settings); also the admin service's and the CLI's, whose settings have the same shape under another key. A file that does not
   * load is an {@link IllegalArgumentException} naming {@code key}'s setting and the file.
   */
  public static SslContext clientContext(ConsumerConfig.Tls tls, String key) {
    return clientContext(tls, key, SslProvider.JDK);
  }

  /**
   * The pullers' client TLS context: as {@link #clientContext(ConsumerConfig.Tls, String)}, in this process's Netty
   * provider ({@link TlsProviders#netty()}: BoringSSL where it loads). Public so that a benchmark's reader decrypts as a
   * consumer does.
   */
  public static SslContext pullerContext(ConsumerConfig.Tls tls, String key) {
    return clientContext(tls, key, TlsProviders.netty());
  }

  /** As {@link #clientContext(ConsumerConfig.Tls, String)}, in {@code provider}. */
  static SslContext clientContext(ConsumerConfig.Tls tls, String key, SslProvider provider) {
    SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(provider).protocols(PROTOCOLS)
        .endpointIdentificationAlgorithm("HTTPS");
    String loading = key + ".caFile " + tls.caFile();
    try {
      if (tls.caFile() != null) {
        builder.trustManager(new File(tls.caFile()));
      }
      if (tls.certFile() != null) {
        loading = key + ".certFile " + tls.certFile() + " / " + key + ".keyFile " + tls.keyFile();
        builder.keyManager(new File(tls.certFile()), new File(tls.keyFile()));
      }
      loading = "the TLS settings (" + key + ")";
      return builder.build();
    } catch (SSLException | IllegalArgumentException e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      throw new IllegalArgumentException("cannot load " + loading + ": " + e.getMessage()
          + (root == e ? "" : " (" + root.getMessage() + ")"), e);
    }
  }


  /** Whether TLS is configured (then every relay must be https://). */
  public boolean tls() {
    return ssl != null;
  }

  /**
   * The JDK context for clients other than the pullers (the consumer service's start-up checks), or null without
   * TLS. Its parameters are {@link #sslParameters()}.
   */
  public SSLContext jdkContext() {
    return jdk == null ? null : ((JdkSslContext) jdk).context();
  }

  /** TLS 1.3/1.2 and host-name verification, for {@link #jdkContext()}. */
  public SSLParameters sslParameters() {
    SSLParameters parameters = new SSLParameters();
    parameters.setProtocols(PROTOCOLS);
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    return parameters;
  }

  /** The {@code Authorization} header's value, or null without a token. */
  public String authorization() {
    return authorization;
  }

  /**
   * Why this consumer will not talk to {@code relay} (a plain relay while TLS is configured, or the reverse), or
   * null. Discovered relays are checked here; configured ones already were, in {@link ConsumerConfig}.
   */
  public String refusal(URI relay) {
    boolean https = "https".equals(relay.getScheme());
    if (ssl != null && !https) {
      return "relay " + relay + " is plain http and this consumer is configured for TLS (tls): refusing it";
    }
    if (ssl == null && https) {
      return "relay " + relay + " speaks https and this consumer has no tls settings";
    }
    return null;
  }

  /** The TLS handler for a connection to {@code relay} (SNI and host-name check use its host), or null. */
  SslHandler handler(ByteBufAllocator allocator, URI relay) {
    return ssl == null ? null : ssl.newHandler(allocator, relay.getHost(), port(relay));
  }

  static int port(URI relay) {
    return relay.getPort() >= 0 ? relay.getPort() : "https".equals(relay.getScheme()) ? 443 : 80;
  }

  @Override
  public String toString() {
    return "RelayAccess[tls=" + (ssl != null) + ", token=" + (authorization != null ? "******" : "none") + "]";
  }
}
