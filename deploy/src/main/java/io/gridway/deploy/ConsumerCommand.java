package io.gridway.deploy;

import io.gridway.consumer.service.ConsumerMain;
import io.gridway.consumer.service.ServiceConfig;
import io.gridway.core.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gridway consumer --config consumer.yaml}: validates the file with the launcher's error handling,
 * then runs {@link ConsumerMain#run}, whose exit code it returns (2 for a configuration to change, 1 when a peer stayed unreachable or a
 * partition fails, 0 after SIGTERM/SIGINT).
 */
@Command(name = "consumer", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = {"Run a consumer: pull partitions of one source from its relays and apply them, checkpointing as it goes.",
        "Prints 'gridway consumer started' once its partitions run; runs until SIGTERM/SIGINT."},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway consumer --config /etc/gridway/consumer.yaml",
        "  systemctl start gridway-consumer@orders    # reads /etc/gridway/consumer-orders.yaml"})
final class ConsumerCommand implements Callable<Integer> {
  @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The consumer's YAML file (see conf/consumer.yaml).")
  Path config;

  @Override
  public Integer call() throws InterruptedException {
    if (!addOnsInstalled()) {
      // with add-ons, ConsumerMain.run validates after loading them (before, an add-on's applier.type is unknown:
      // PhoenixAddOnIT); its configuration errors are one paragraph and exit 2 as well
      ConfigLoader.load(config, ServiceConfig.class);
    }
    return ConsumerMain.run(new String[] {"--config", config.toString()});
  }

  /** The consumer service's rule: {@code -Dgridway.addons=}, else {@code addons/} under {@code gridway.home}. */
  private static boolean addOnsInstalled() {
    String explicit = System.getProperty("gridway.addons");
    String home = System.getProperty("gridway.home");
    return explicit != null || home != null && Files.isDirectory(Path.of(home, "addons"));
  }
}
