package io.gridway.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gridway version}: the distribution's version and the JVM it runs on. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the Gridway version and the Java runtime.",
    footerHeading = "%nExamples:%n", footer = {"  gridway version"})
final class VersionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The version this launcher was built as ({@code 0.1.0-SNAPSHOT}). */
  static String version() {
    try (InputStream in = VersionCommand.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Integer call() {
    spec.commandLine().getOut().println("gridway " + version() + " (Java " + Runtime.version() + ", "
        + System.getProperty("java.vm.name") + ")");
    return Gridway.OK;
  }
}
