package io.gridway.fetcher.goldengate;

import io.gridway.core.config.ByteSize;
import io.gridway.core.config.ConfigLoader;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a {@link GoldenGateFetcher} finds GoldenGate's files and how it reads them. Loaded by Jackson from
 * the relay's YAML under {@code source.goldengate} (unknown keys rejected); optional keys are boxed and get
 * their defaults here. Every message names its key.
 *
 * <pre>{@code
 * directory: /var/gg/dirdat          # where the rolling files are written
 * filePrefix: ea                     # file name = prefix + zero-padded sequence + suffix: ea000000042
 * sequenceDigits: 9                  # width of the sequence in the name (GoldenGate trails: 9, old ones 6)
 * fileSuffix: ""                     # for example .json for File Writer output
 * format: xml                        # xml (Classic Extract FORMATXML) | json (GG for Big Data JSON operation format)
 * schemaDirectory: /var/gg/dirdef    # one <OWNER>.<TABLE>.schema.json per table (see README.md): column types
 * csnToken: TK-CSN                   # the user token carrying the commit sequence number
 * xidToken: TK-XID                   # the user token carrying the transaction id
 * csnRegression: fail                # fail | skip: what a CSN lower than the previous one does
 * firstSequence: 0                   # first start only: the file to begin with (default: the lowest present)
 * pollInterval: 1s                   # longest wait between looks at a file that has not grown
 * maxTransactionBytes: 256MiB        # a bigger window stops the fetcher instead of exhausting the heap
 * }</pre>
 */
public record GoldenGateConfig(
    String directory,
    String filePrefix,
    Integer sequenceDigits,
    String fileSuffix,
    String format,
    String schemaDirectory,
    String csnToken,
    String xidToken,
    String csnRegression,
    Long firstSequence,
    Duration pollInterval,
    ByteSize maxTransactionBytes) {

  static final int DEFAULT_SEQUENCE_DIGITS = 9;
  static final Duration DEFAULT_POLL = Duration.ofSeconds(1);
  static final ByteSize DEFAULT_MAX_TRANSACTION = ByteSize.ofMebibytes(256);
  /** A window is held in one array of bytes; keep well below the JVM's array limit. */
  static final long MAX_TRANSACTION_LIMIT = 1L << 30;

  /** The two documented file formats this fetcher reads. */
  enum Format {
    XML,
    JSON
  }

  public GoldenGateConfig {
    directory = required(directory, "directory");
    filePrefix = required(filePrefix, "filePrefix");
    if (filePrefix.contains("/") || filePrefix.contains("\\")) {
      throw new IllegalArgumentException("filePrefix '" + filePrefix + "' must be a file name prefix, not a path (put the path in directory)");
    }
    sequenceDigits = sequenceDigits == null ? DEFAULT_SEQUENCE_DIGITS : sequenceDigits;
    if (sequenceDigits < 1 || sequenceDigits > 10) {
      throw new IllegalArgumentException("sequenceDigits " + sequenceDigits + " out of range 1..10");
    }
    fileSuffix = fileSuffix == null ? "" : fileSuffix;
    format = required(format, "format");
    if (!format.equals("xml") && !format.equals("json")) {
      throw new IllegalArgumentException("format '" + format + "' is not one of xml, json");
    }
    schemaDirectory = required(schemaDirectory, "schemaDirectory");
    csnToken = csnToken == null ? "TK-CSN" : required(csnToken, "csnToken");
    xidToken = xidToken == null ? "TK-XID" : required(xidToken, "xidToken");
    csnRegression = csnRegression == null ? "fail" : csnRegression;
    if (!csnRegression.equals("fail") && !csnRegression.equals("skip")) {
      throw new IllegalArgumentException("csnRegression '" + csnRegression + "' is not one of fail, skip");
    }
    if (firstSequence != null && (firstSequence < 0 || firstSequence > 0xFFFF_FFFFL)) {
      throw new IllegalArgumentException("firstSequence " + firstSequence + " out of range 0..4294967295");
    }
    pollInterval = pollInterval == null ? DEFAULT_POLL : pollInterval;
    if (pollInterval.toMillis() < 1) {
      throw new IllegalArgumentException("pollInterval must be at least 1ms");
    }
    maxTransactionBytes = maxTransactionBytes == null ? DEFAULT_MAX_TRANSACTION : maxTransactionBytes;
    if (maxTransactionBytes.bytes() < 1024 || maxTransactionBytes.bytes() > MAX_TRANSACTION_LIMIT) {
      throw new IllegalArgumentException("maxTransactionBytes " + maxTransactionBytes + " out of range 1KiB..1GiB");
    }
  }

  /** The essentials; every optional key at its default. */
  public static GoldenGateConfig of(Path directory, String filePrefix, String format, Path schemaDirectory) {
    return new GoldenGateConfig(directory.toString(), filePrefix, null, null, format, schemaDirectory.toString(),
        null, null, null, null, null, null);
  }

  /** Reads and validates a YAML file (see the class comment for the keys). */
  public static GoldenGateConfig load(Path file) {
    return ConfigLoader.load(file, GoldenGateConfig.class);
  }

  public GoldenGateConfig withCsnRegression(String newMode) {
    return new GoldenGateConfig(directory, filePrefix, sequenceDigits, fileSuffix, format, schemaDirectory, csnToken,
        xidToken, newMode, firstSequence, pollInterval, maxTransactionBytes);
  }

  public GoldenGateConfig withLimits(Duration newPollInterval, ByteSize newMaxTransactionBytes) {
    return new GoldenGateConfig(directory, filePrefix, sequenceDigits, fileSuffix, format, schemaDirectory, csnToken,
        xidToken, csnRegression, firstSequence, newPollInterval, newMaxTransactionBytes);
  }

  public GoldenGateConfig withFileNames(int newSequenceDigits, String newSuffix) {
    return new GoldenGateConfig(directory, filePrefix, newSequenceDigits, newSuffix, format, schemaDirectory, csnToken,
        xidToken, csnRegression, firstSequence, pollInterval, maxTransactionBytes);
  }

  Format trailFormat() {
    return format.equals("xml") ? Format.XML : Format.JSON;
  }

  boolean skipRegressions() {
    return csnRegression.equals("skip");
  }

  private static String required(String value, String key) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(key + " is required");
    }
    return value;
  }
}
