package io.gridway.consumer.apply;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@code applier.type: logging}: every event as a JSON line ({@code applier.logging.output}). */
public final class LoggingApplierProvider implements ApplierProvider<LoggingApplierProvider.Settings> {

  /** @param output the file events are appended to, or {@code -} (default) for standard output */
  public record Settings(String output) {
    public Settings {
      output = output == null ? "-" : output;
    }
  }

  @Override
  public String type() {
    return "logging";
  }

  @Override
  public Class<Settings> settingsType() {
    return Settings.class;
  }

  @Override
  public Applier open(Settings settings, ApplierContext context) {
    String output = settings.output();
    if (output.equals("-")) {
      return Applier.of(new LoggingApplier(System.out));
    }
    OutputStream out;
    try {
      out = new BufferedOutputStream(Files.newOutputStream(Path.of(output), StandardOpenOption.CREATE,
          StandardOpenOption.APPEND), 1 << 16);
    } catch (IOException e) {
      throw new IllegalArgumentException("applier.logging.output: cannot open " + output + ": " + e.getMessage(), e);
    }
    LoggingApplier applier = new LoggingApplier(out);
    return new Applier() {
      @Override
      public LoggingApplier handler() {
        return applier;
      }

      @Override
      public void close() {
        try {
          out.close();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException("applier.logging.output: cannot close " + output, e);
        }
      }
    };
  }
}
