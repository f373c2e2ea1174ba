package io.gridway.testkit;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a server's log, for error messages. Stateless and thread-safe. */
final class LogTail {
  static final int LINES = 30;

  private LogTail() {}

  static String of(Path log) {
    try {
      // logs of a failed start are small; reading whole is fine, and malformed bytes must not hide
      // them
      List<String> lines =
          new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
      List<String> tail = lines.subList(Math.max(0, lines.size() - LINES), lines.size());
      return "--- last " + tail.size() + " lines of " + log + " ---\n" + String.join("\n", tail);
    } catch (IOException e) {
      return "(no log at " + log + ": " + e.getMessage() + ")";
    }
  }

  /** Everything written to {@code log} after byte {@code offset}. */
  static String since(Path log, long offset) {
    try (SeekableByteChannel channel = Files.newByteChannel(log)) {
      channel.position(offset);
      return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
