package io.gridway.relay.http;

import io.gridway.core.config.SecretFile;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Bearer tokens ({@code http.auth}): each token, read once from its file or variable, is kept only as its SHA-256
 * digest with the name and the sources it may read. A request's token is digested and looked up; a missing or
 * unknown token is 401, a token that may not read the source 403. The digest, not the token, is what a heap dump
 * holds. Immutable and thread-safe.
 */
final class TokenAuth {
  private static final String BEARER = "Bearer ";

  /** What one token may do. */
  private record Grant(String name, Set<String> sources) {
    boolean mayRead(String source) {
      return sources.isEmpty() || sources.contains(source);
    }
  }

  private final Map<String, Grant> byDigest;

  TokenAuth(HttpConfig.Auth config, Set<String> served, Map<String, String> environment) {
    Map<String, Grant> grants = new HashMap<>();
    for (HttpConfig.Token token : config.tokens()) {
      String key = "http.auth.tokens[" + token.name() + "]";
      for (String source : token.sources()) {
        if (!served.contains(source)) {
          throw new IllegalArgumentException(key + ".sources: this relay serves no source '" + source + "' (it serves "
              + served + ")");
        }
      }
      String digest = digest(SecretFile.read(token.tokenFile(), token.tokenEnv(), key, environment));
      if (grants.put(digest, new Grant(token.name(), Set.copyOf(token.sources()))) != null) {
        throw new IllegalArgumentException(key + ": the same token as another entry; give each client its own");
      }
    }
    this.byDigest = Map.copyOf(grants);
  }

  /** Null when the request may go on, else the problem to answer. {@code source} is null for non-source endpoints. */
  Problem check(String authorization, String source) {
    if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Problem.unauthorized(authorization == null
          ? "no Authorization header: this relay requires 'Authorization: Bearer <token>' (http.auth)"
          : "the Authorization header is not a Bearer token");
    }
    Grant grant = byDigest.get(digest(authorization.substring(BEARER.length()).strip()));
    if (grant == null) {
      return Problem.unauthorized("the bearer token is not one this relay accepts (revoked, mistyped or for another relay)");
    }
    if (source != null && !grant.mayRead(source)) {
      return Problem.forbidden("token '" + grant.name() + "' may not read source '" + source + "' (it may read "
          + List.copyOf(grant.sources()) + ")");
    }
    return null;
  }

  static String digest(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
