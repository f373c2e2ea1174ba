package io.gridway.testkit;

import java.nio.file.Path;

/**
 * A private server's TLS files ({@link TestPki#serverFiles}): its certificate and key (PEM) and the CA it trusts.
 *
 * @param certFile PEM certificate
 * @param keyFile PEM private key (PKCS#8)
 * @param caFile PEM CA certificate
 */
public record ServerTlsFiles(Path certFile, Path keyFile, Path caFile) {}
