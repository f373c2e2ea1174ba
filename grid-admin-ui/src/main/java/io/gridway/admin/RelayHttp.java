package io.gridway.admin;

import io.gridway.consumer.ConsumerConfig;
import io.gridway.consumer.RelayAccess;
import io.gridway.core.config.SecretFile;
import io.netty.handler.ssl.JdkSslContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLParameters;

/**
 * How the admin service reaches relays: one {@link HttpClient} (trusting {@code relays.tls.caFile}, with a client
 * certificate when one is configured) and the bearer token of {@code relays.auth}, which every request carries. It
 * follows the consumer's rules (docs/security.md): with {@code tls} every relay must be https:// and the token is never
 * sent to a plain one; without it an https:// relay is refused, since nothing says which CA to trust. Files and the
 * variable are read once, when this is made; one that does not load is an {@link IllegalArgumentException} naming the
 * setting, never the token.
 *
 * <p>Immutable and thread-safe.
 */
final class RelayHttp {
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
  private final HttpClient client;
  private final String authorization;
  private final boolean tls;
  private final Duration timeout;

  private RelayHttp(HttpClient client, String authorization, boolean tls, Duration timeout) {
    this.client = client;
    this.authorization = authorization;
    this.tls = tls;
    this.timeout = timeout;
  }

  /** Plain HTTP without a token: relays without {@code http.tls} or {@code http.auth}. */
  static RelayHttp plain(Duration timeout) {
    return of(AdminSettings.Relays.NONE, Map.of(), timeout);
  }

  /** What {@code relays} names, with the token's variable from {@code environment}; each request waits {@code timeout}. */
  static RelayHttp of(AdminSettings.Relays relays, Map<String, String> environment, Duration timeout) {
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
    if (relays.tls() != null) {
      SSLParameters parameters = new SSLParameters();
      parameters.setProtocols(PROTOCOLS);
      parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the endpoint's host
      builder.sslContext(sslContext(relays.tls())).sslParameters(parameters);
    }
    ConsumerConfig.Auth auth = relays.auth();
    String authorization = auth == null ? null
        : "Bearer " + SecretFile.read(auth.tokenFile(), auth.tokenEnv(), "relays.auth", environment);
    return new RelayHttp(builder.build(), authorization, relays.tls() != null, timeout);
  }

  private static javax.net.ssl.SSLContext sslContext(ConsumerConfig.Tls tls) {
    return ((JdkSslContext) RelayAccess.clientContext(tls, "relays.tls")).context();
  }


  HttpClient client() {
    return client;
  }

  Duration timeout() {
    return timeout;
  }

  /**
   * A GET of {@code uri} with the token, if any; {@link IllegalStateException} with the reason when this service will
   * not send it there (see {@link #refusal}).
   */
  HttpRequest.Builder get(URI uri) {
    String refused = refusal(uri);
    if (refused != null) {
      throw new IllegalStateException(refused);
    }
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(timeout).GET();
    return authorization == null ? builder : builder.header("Authorization", authorization);
  }

  /** Why no request goes to {@code relay} (its scheme does not match {@code relays.tls}), or null. */
  String refusal(URI relay) {
    boolean https = "https".equals(relay.getScheme());
    if (tls && !https) {
      return "relay " + relay.getScheme() + "://" + relay.getAuthority() + " is plain http and relays.tls is set: not sending it "
          + "a request (or the token)";
    }
    if (!tls && https) {
      return "relay https://" + relay.getAuthority() + " speaks https and admin.yaml has no relays.tls (caFile) to check its "
          + "certificate with";
    }
    return null;
  }

  /**
   * The person's explanation of a relay's refusal ({@code status} 401 or 403, {@code body} its problem document): what
   * it said and which setting to look at. Other statuses: null.
   */
  static String refused(int status, String body) {
    if (status != 401 && status != 403) {
      return null;
    }
    String detail = "";
    try {
      detail = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("detail").asText("");
    } catch (java.io.IOException | RuntimeException e) {
      // not a problem document: the status says enough
    }
    return "the relay refused the request with HTTP " + status + (status == 401 ? " (unauthorized" : " (forbidden")
        + (detail.isEmpty() ? "" : ": " + detail) + "); check relays.auth in admin.yaml"
        + (status == 401 ? " (a token this relay accepts)" : " (a token allowed to read this source)");
  }

  @Override
  public String toString() {
    return "RelayHttp[tls=" + tls + ", token=" + (authorization != null ? "******" : "none") + "]";
  }
}
