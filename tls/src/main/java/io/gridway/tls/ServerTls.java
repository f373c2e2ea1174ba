package io.gridway.tls;

import io.gridway.core.config.SecretFile;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's TLS context, rebuilt when its files change on disk: on a new connection, at most every {@code
 * reloadCheck}, the files' modification times and sizes are compared with those last loaded. A rotated certificate
 * serves the next connections; open connections keep theirs. A file that does not load (a half-written copy, a key
 * that does not match) keeps the previous context in use and is logged once per change.
 *
 * <p>Thread-safe: connections of every event loop ask for the context; one of them reloads at a time.
 */
public final class ServerTls {
  private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final ServerTlsSettings config;
  private final String key;
  private final String server;
  private final Map<String, String> environment;
  private final long checkNanos;
  private volatile SslContext context;
  private volatile List<Object> loadedStamps;
  private List<Object> failedStamps;
  private volatile long nextCheck;

  /**
   * Loads the files now: a server with a certificate it cannot load does not start.
   *
   * @param key the setting's name in errors (e.g. {@code http.tls})
   * @param server what serves it, in log lines (e.g. {@code HTTP API})
   */
  public ServerTls(ServerTlsSettings config, Map<String, String> environment, String key, String server) {
    this.config = config;
    this.key = key;
    this.server = server;
    this.environment = environment;
    this.checkNanos = config.reloadCheck().toNanos();
    List<Object> stamps = stamps();
    try {
      this.context = build();
    } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": cannot load " + files() + ": " + describe(e), e);
    }
    this.loadedStamps = stamps;
    this.nextCheck = System.nanoTime() + checkNanos;
  }

  /** The context for a new connection, reloaded first if a file changed. */
  public SslContext context() {
    if (System.nanoTime() - nextCheck >= 0) {
      reloadIfChanged();
    }
    return context;
  }

  private synchronized void reloadIfChanged() {
    if (System.nanoTime() - nextCheck < 0) {
      return;
    }
    nextCheck = System.nanoTime() + checkNanos;
    List<Object> stamps = stamps();
    if (stamps.equals(loadedStamps) || stamps.equals(failedStamps)) {
      return;
    }
    try {
      context = build();
      loadedStamps = stamps;
      failedStamps = null;
      LOG.info("{}: reloaded the TLS certificate from {} (new connections use it)", server, files());
    } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
      failedStamps = stamps;
      LOG.warn("{}: {} changed but does not load ({}); still serving the previous certificate", server, files(), describe(e));
    }
  }

  private SslContext build() throws IOException, GeneralSecurityException {
    SslContextBuilder builder;
    if (config.keyStoreFile() != null) {
      char[] password = SecretFile.read(config.keyStorePasswordFile(), config.keyStorePasswordEnv(), key,
          environment).toCharArray();
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(Path.of(config.keyStoreFile()))) {
        store.load(in, password);
      }
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      builder = SslContextBuilder.forServer(keys);
    } else {
      requireMatchingPair(Path.of(config.certFile()), Path.of(config.keyFile()));
      builder = SslContextBuilder.forServer(new File(config.certFile()), new File(config.keyFile()));
    }
    builder.sslProvider(TlsProviders.netty()).protocols(PROTOCOLS);
    if (config.clientCaFile() != null) {
      builder.trustManager(new File(config.clientCaFile())).clientAuth(ClientAuth.REQUIRE);
    }
    return builder.build();
  }

  /**
   * Refuses a key that does not belong to the certificate (a rotation caught between renaming the two files): it
   * would load, and every handshake would fail. Signs a few bytes with the key and checks them with the leaf
   * certificate's public key.
   */
  static void requireMatchingPair(Path certFile, Path keyFile) throws IOException, GeneralSecurityException {
    X509Certificate leaf;
    try (InputStream in = Files.newInputStream(certFile)) {
      leaf = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
    String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
    int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
    int end = pem.indexOf("-----END PRIVATE KEY-----");
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException(keyFile + " holds no PEM PKCS#8 private key (BEGIN PRIVATE KEY)");
    }
    byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
    String algorithm = leaf.getPublicKey().getAlgorithm();
    PrivateKey key = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
    String signing = algorithm.equals("EC") ? "SHA256withECDSA" : algorithm.equals("RSA") ? "SHA256withRSA" : null;
    if (signing == null) {
      return; // other key types: the handshake is the check
    }
    byte[] probe = "gridway key check".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance(signing);
    signer.initSign(key);
    signer.update(probe);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(signing);
    verifier.initVerify(leaf.getPublicKey());
    verifier.update(probe);
    if (!verifier.verify(signature)) {
      throw new IllegalArgumentException(keyFile + " is not the key of the certificate in " + certFile);
    }
  }

  /** Modification time and size of each file, so that a rewrite within the clock's granularity is seen too. */
  private List<Object> stamps() {
    List<Object> stamps = new ArrayList<>();
    for (String file : new String[] {config.certFile(), config.keyFile(), config.keyStoreFile(), config.clientCaFile()}) {
      if (file == null) {
        continue;
      }
      try {
        Path path = Path.of(file);
        stamps.add(Files.getLastModifiedTime(path));
        stamps.add(Files.size(path));
      } catch (IOException e) {
        stamps.add(e.getClass().getSimpleName());
      }
    }
    return stamps;
  }

  private String files() {
    StringBuilder names = new StringBuilder();
    for (String file : new String[] {config.certFile(), config.keyFile(), config.keyStoreFile(), config.clientCaFile()}) {
      if (file != null) {
        names.append(names.length() == 0 ? "" : ", ").append(file);
      }
    }
    return names.toString();
  }

  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = Objects.requireNonNullElse(root.getMessage(), root.getClass().getSimpleName());
    return root == e ? message : e.getMessage() + " (" + message + ")";
  }
}
