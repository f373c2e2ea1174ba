package io.gridway.fetcher.mysql;

/**
 * TLS to the source server, for the binlog connection and the fetcher's JDBC reads alike ({@code tls:} in the
 * source's YAML; docs/security.md).
 *
 * @param mode how much is checked
 * @param caFile PEM certificates of the CAs that sign the server's certificate ({@code verify-ca} and {@code
 *     verify-identity}); null for the JDK's default trust store
 */
public record SourceTls(Mode mode, String caFile) {
  static final SourceTls DISABLED = new SourceTls(Mode.DISABLED, null);

  /** What a connection demands of the server. */
  public enum Mode {
    /** Plain TCP. */
    DISABLED,
    /** Encrypted, the certificate not checked: protects against listening, not against a server in the middle. */
    REQUIRED,
    /** Encrypted, the certificate must chain to {@code caFile}. */
    VERIFY_CA,
    /** As {@code verify-ca}, and the certificate must name {@code host}: the setting to use. */
    VERIFY_IDENTITY
  }

  public SourceTls {
    mode = mode == null ? Mode.VERIFY_IDENTITY : mode;
    if (caFile != null && (mode == Mode.DISABLED || mode == Mode.REQUIRED)) {
      throw new IllegalArgumentException("tls.caFile: only with mode verify-ca or verify-identity (mode is "
          + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ")");
    }
  }
}
