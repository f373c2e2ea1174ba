package io.gridway.testkit;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A throw-away certificate authority for tests, made at run time (no private key is ever checked in): a CA and the
 * server and client certificates it issues, written as PEM files (certificate; PKCS#8 key, mode 0600 by default) or a
 * PKCS#12 key store. Keys are ECDSA P-256, which are quick to make. Host names and IP addresses go into the subject
 * alternative names, which is what TLS clients check.
 *
 * <pre>{@code
 * TestPki pki = TestPki.create(tempDir);
 * TestPki.Issued server = pki.server("relay", "127.0.0.1", "localhost");
 * // server.certFile(), server.keyFile(), pki.caFile()
 * }</pre>
 *
 * <p>Not thread-safe while issuing; the files it wrote are plain files.
 */
public final class TestPki {
  private final Path dir;
  private final X509Bundle ca;
  private final Path caFile;

  private TestPki(Path dir, X509Bundle ca, Path caFile) {
    this.dir = dir;
    this.ca = ca;
    this.caFile = caFile;
  }

  /** A new CA ({@code CN=<name>}), its certificate written to {@code dir/<name>.crt}. */
  public static TestPki create(Path dir, String name) {
    try {
      Files.createDirectories(dir);
      X509Bundle ca = new CertificateBuilder().subject("CN=" + name).ecp256().setIsCertificateAuthority(true)
          .notBefore(Instant.now().minus(Duration.ofHours(1))).notAfter(Instant.now().plus(Duration.ofDays(2)))
          .buildSelfSigned();
      Path caFile = dir.resolve(name + ".crt");
      Files.writeString(caFile, ca.getCertificatePEM(), StandardCharsets.US_ASCII);
      return new TestPki(dir, ca, caFile);
    } catch (Exception e) {
      throw new IllegalStateException("cannot make a test CA in " + dir, e);
    }
  }

  /** A new CA named {@code gridway-test-ca}. */
  public static TestPki create(Path dir) {
    return create(dir, "gridway-test-ca");
  }

  /** The CA's certificate (PEM): the trust anchor to give clients and servers. */
  public Path caFile() {
    return caFile;
  }

  /** The files a private database server needs to serve {@code issued} ({@link PrivateMariaDb#dedicatedWithTls}). */
  public ServerTlsFiles serverFiles(Issued issued) {
    return new ServerTlsFiles(issued.certFile(), issued.keyFile(), caFile);
  }

  /** A server certificate for {@code hosts} (names or IP addresses), valid from an hour ago for two days. */
  public Issued server(String name, String... hosts) {
    return issue(name, hosts, true, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(2)));
  }

  /** A client certificate ({@code CN=<name>}). */
  public Issued client(String name) {
    return issue(name, new String[0], false, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(2)));
  }

  /**
   * A certificate for both ends of a connection (server and client authentication), for {@code hosts}: what a process
   * that hosts an embedded ZooKeeper and is also its client presents on both sides.
   */
  public Issued peer(String name, String... hosts) {
    return issue(name, hosts, null, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(2)));
  }

  /** A server certificate for {@code hosts} that expired yesterday. */
  public Issued expiredServer(String name, String... hosts) {
    return issue(name, hosts, true, Instant.now().minus(Duration.ofDays(3)), Instant.now().minus(Duration.ofDays(1)));
  }

  /**
   * A server certificate written over {@code into}'s files, each replaced atomically (rename), as an operator's
   * rotation script would: a reader never sees half a file.
   */
  public Issued rotate(Issued into, String... hosts) {
    Issued fresh = server(into.name() + "-next", hosts);
    try {
      Files.move(fresh.keyFile(), into.keyFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      Files.move(fresh.certFile(), into.certFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Issued(into.name(), into.certFile(), into.keyFile(), fresh.bundle());
  }

  private Issued issue(String name, String[] hosts, Boolean server, Instant notBefore, Instant notAfter) {
    try {
      CertificateBuilder builder = new CertificateBuilder().subject("CN=" + name).ecp256()
          .notBefore(notBefore).notAfter(notAfter);
      for (String host : hosts) {
        if (Character.isDigit(host.charAt(0)) || host.contains(":")) {
          builder.addSanIpAddress(host);
        } else {
          builder.addSanDnsName(host);
        }
      }
      if (server == null || server) {
        builder.addExtendedKeyUsageServerAuth();
      }
      if (server == null || !server) {
        builder.addExtendedKeyUsageClientAuth();
      }
      X509Bundle bundle = builder.buildIssuedBy(ca);
      Path cert = dir.resolve(name + ".crt");
      Path key = dir.resolve(name + ".key");
      Files.writeString(cert, bundle.getCertificatePEM(), StandardCharsets.US_ASCII);
      Files.deleteIfExists(key);
      Files.createFile(key, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
          java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
      Files.writeString(key, bundle.getPrivateKeyPEM(), StandardCharsets.US_ASCII);
      return new Issued(name, cert, key, bundle);
    } catch (Exception e) {
      throw new IllegalStateException("cannot issue a test certificate " + name, e);
    }
  }

  /**
   * One issued certificate and its key.
   *
   * @param name the subject's CN and the files' base name
   * @param certFile PEM certificate
   * @param keyFile PEM PKCS#8 private key
   * @param bundle the certificate and key in memory
   */
  public record Issued(String name, Path certFile, Path keyFile, X509Bundle bundle) {
    /** A line from the middle of the PEM private key: enough to recognize the key anywhere it is shown. */
    public String keyLine() {
      try {
        List<String> pem = Files.readAllLines(keyFile);
        return pem.get(pem.size() / 2);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + keyFile, e);
      }
    }

    /**
     * The private key followed by the certificate in one PEM file at {@code file} (mode 0600): the key store form
     * ZooKeeper's {@code PEM} type reads.
     */
    public Path pemKeyStore(Path file) {
      try {
        Files.deleteIfExists(file);
        Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, bundle.getPrivateKeyPEM() + bundle.getCertificatePEM(), StandardCharsets.US_ASCII);
        return file;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + file, e);
      }
    }

    /** The certificate, its key and the CA in a PKCS#12 key store at {@code file}, protected by {@code password}. */
    public Path pkcs12(Path file, char[] password) {
      try {
        KeyStore store = bundle.toKeyStore(password);
        try (OutputStream out = Files.newOutputStream(file)) {
          store.store(out, password);
        }
        return file;
      } catch (Exception e) {
        throw new IllegalStateException("cannot write a PKCS#12 key store " + file, e);
      }
    }
  }
}
