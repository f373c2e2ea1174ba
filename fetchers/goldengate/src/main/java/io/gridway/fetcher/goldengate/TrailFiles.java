package io.gridway.fetcher.goldengate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The names of a directory's rolling files: prefix, zero-padded sequence number, suffix ({@code ea000000042}).
 * Immutable and thread-safe.
 */
final class TrailFiles {
  private final Path directory;
  private final String prefix;
  private final int digits;
  private final String suffix;

  TrailFiles(Path directory, String prefix, int digits, String suffix) {
    this.directory = directory;
    this.prefix = prefix;
    this.digits = digits;
    this.suffix = suffix;
  }

  static TrailFiles of(GoldenGateConfig config) {
    return new TrailFiles(Path.of(config.directory()), config.filePrefix(), config.sequenceDigits(), config.fileSuffix());
  }

  Path directory() {
    return directory;
  }

  String name(long sequence) {
    String number = Long.toString(sequence);
    if (number.length() > digits) {
      throw new IllegalArgumentException("sequence " + sequence + " does not fit " + digits + " digits");
    }
    return prefix + "0".repeat(digits - number.length()) + number + suffix;
  }

  /** The names' shape, for messages: {@code eaNNNNNNNNN}. */
  String pattern() {
    return prefix + "N".repeat(digits) + suffix;
  }

  Path path(long sequence) {
    return directory.resolve(name(sequence));
  }

  boolean exists(long sequence) {
    return Files.isRegularFile(path(sequence));
  }

  /** The sequence a file name carries, or -1 when the name is not one of these files. */
  long sequenceOf(String fileName) {
    if (fileName.length() != prefix.length() + digits + suffix.length() || !fileName.startsWith(prefix) || !fileName.endsWith(suffix)) {
      return -1;
    }
    long sequence = 0;
    for (int i = prefix.length(); i < prefix.length() + digits; i++) {
      char c = fileName.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      sequence = sequence * 10 + (c - '0');
    }
    return sequence;
  }

  /** The lowest sequence present, or -1 when there is none (or the directory does not exist yet). */
  long lowest() throws IOException {
    if (!Files.isDirectory(directory)) {
      return -1;
    }
    long lowest = -1;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        long sequence = sequenceOf(entry.getFileName().toString());
        if (sequence >= 0 && (lowest < 0 || sequence < lowest)) {
          lowest = sequence;
        }
      }
    }
    return lowest;
  }

  /** The lowest sequence above {@code sequence} that is present, or -1. */
  long nextPresentAfter(long sequence) throws IOException {
    if (!Files.isDirectory(directory)) {
      return -1;
    }
    long next = -1;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        long s = sequenceOf(entry.getFileName().toString());
        if (s > sequence && (next < 0 || s < next)) {
          next = s;
        }
      }
    }
    return next;
  }
}
