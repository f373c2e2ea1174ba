package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Every logback file the distribution ships is well-formed XML and, loaded by logback itself, reports no
 * warning or error, logs an {@code io.gridway} INFO line where it says (standard error or a file) and writes
 * nothing to standard output. The shipped logback.xml once had two hyphens in a comment: logback refused
 * it, logged nothing of Gridway's, and printed its complaints on standard output, into JSON.
 */
class LogbackConfigsTest {
  static final Path CONF = Path.of("src/main/dist/conf");

  static List<Path> shipped() throws Exception {
    try (Stream<Path> files = Files.list(CONF)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".xml")).sorted().toList();
    }
  }

  @Test
  void theDistributionShipsItsThreeLogbackFiles() throws Exception {
    assertThat(shipped()).extracting(p -> p.getFileName().toString())
        .containsExactly("logback-demo.xml", "logback-file.xml", "logback.xml");
  }

  @Test
  void everyShippedLogbackFileIsWellFormedXml() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    for (Path file : shipped()) {
      var builder = factory.newDocumentBuilder();
      builder.setErrorHandler(new DefaultHandler() {
        @Override
        public void error(org.xml.sax.SAXParseException e) throws org.xml.sax.SAXException {
          throw e;
        }
      });
      assertThat(builder.parse(file.toFile()).getDocumentElement().getNodeName()).as(file.toString()).isEqualTo("configuration");
    }
  }

  @Test
  void logbackLoadsEachFileWithoutComplaintAndItsLogLineAppearsWhereTheFileSays(@TempDir Path dir) throws Exception {
    for (Path file : shipped()) {
      String name = file.getFileName().toString().replace(".xml", "");
      Loaded loaded = load(file, dir.resolve(name));
      assertThat(loaded.out).as("%s: standard output", file).isEmpty();
      assertThat(loaded.statuses).as("%s: logback's warnings and errors", file).isEmpty();
      String logged = switch (name) {
        case "logback" -> loaded.err;
        case "logback-demo" -> Files.readString(dir.resolve(name).resolve("demo.log"));
        case "logback-file" -> Files.readString(dir.resolve(name).resolve("relay-shop.log"));
        default -> throw new AssertionError("a shipped logback file without a test case: " + file);
      };
      assertThat(logged).as(file.toString()).contains("INFO").contains("probe: the shipped configuration logs");
      // Helix logs every rebalance at INFO; the shipped files keep it to warnings.
      assertThat(logged).as(file.toString()).doesNotContain("helix chatter");
      if (name.equals("logback-file")) {
        assertThat(loaded.err).as("logback-file.xml: warnings also on standard error").contains("probe: a warning").doesNotContain("probe: the shipped");
      }
    }
  }

  @Test
  void aBrokenConfigurationIsReportedOnStandardErrorNeverOnStandardOutput(@TempDir Path dir) throws Exception {
    Path broken = dir.resolve("broken.xml");
    Files.writeString(broken, "<!-- gridway cluster status --json -->\n<configuration/>\n");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LoggerContext context = new LoggerContext();
    StderrStatusListener listener = new StderrStatusListener();
    listener.setContext(context);
    listener.start();
    PrintStream previous = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      context.getStatusManager().add(listener);
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      try {
        configurator.doConfigure(broken.toFile());
      } catch (ch.qos.logback.core.joran.spi.JoranException expected) {
        // reported through the status listener too
      }
    } finally {
      System.setErr(previous);
      context.stop();
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("logback ERROR: ").contains("broken.xml");
  }

  record Loaded(String out, String err, List<String> statuses) {}

  private static Loaded load(Path file, Path logDir) throws Exception {
    Files.createDirectories(logDir);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream previousOut = System.out;
    PrintStream previousErr = System.err;
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter()); // as logback's own start-up does
    context.putProperty("gridway.log.dir", logDir.toString());
    context.putProperty("gridway.log.name", "relay-shop");
    context.putProperty("gridway.demo.log", logDir.resolve("demo.log").toString());
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      configurator.doConfigure(file.toFile());
      Logger gridway = context.getLogger("io.gridway.deploy.Probe");
      gridway.info("probe: the shipped configuration logs");
      gridway.warn("probe: a warning");
      context.getLogger("org.apache.helix.controller.Probe").info("helix chatter");
    } finally {
      System.setOut(previousOut);
      System.setErr(previousErr);
      context.stop();
    }
    List<String> statuses = context.getStatusManager().getCopyOfStatusList().stream()
        .filter(s -> s.getEffectiveLevel() >= Status.WARN).map(Status::toString).collect(Collectors.toList());
    assertThat(new StatusUtil(context).getHighestLevel(0) >= Status.WARN).isEqualTo(!statuses.isEmpty());
    return new Loaded(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), statuses);
  }
}
