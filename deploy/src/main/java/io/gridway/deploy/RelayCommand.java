package io.gridway.deploy;

import io.gridway.relay.RelayConfig;
import io.gridway.relay.RelayService;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gridway relay --config relay.yaml}: the same {@link RelayService} as {@code RelayMain} (the relay, and
 * with a {@code cluster:} section its Helix membership), with the launcher's error handling.
 */
@Command(name = "relay", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
    description = {"Run a relay: read a source's change log into the off-heap event buffer and serve it over HTTP.",
        "Prints 'gridway relay listening on http(s)://HOST:PORT' once it serves; runs until SIGTERM/SIGINT."},
    footerHeading = "%nExamples:%n",
    footer = {"  gridway relay --config /etc/gridway/relay.yaml",
        "  GRIDWAY_OPTS=-XX:MaxDirectMemorySize=5g gridway relay --config relay.yaml",
        "  curl http://127.0.0.1:8080/health    # then /v1/sources, /metrics"})
final class RelayCommand implements Callable<Integer> {
  @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The relay's YAML file (see conf/relay.yaml).")
  Path config;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    RelayConfig relayConfig = RelayConfig.load(config);
    RelayService relay;
    try {
      relay = RelayService.create(relayConfig, Clock.systemUTC());
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new UsageException("configuration error: " + config + ": " + e.getMessage(), e);
    }
    InetSocketAddress address;
    try {
      address = relay.start();
    } catch (RuntimeException e) {
      relay.close();
      throw e;
    }
    spec.commandLine().getOut().println("gridway relay listening on " + relayConfig.http().scheme() + "://" + address.getHostString() + ":" + address.getPort());
    if (relayConfig.cluster() != null) {
      spec.commandLine().getOut().println("gridway relay advertised as " + relay.endpoint() + " in cluster "
          + relayConfig.cluster().name());
    }
    Shutdown.closeOnSignalAndWait("gridway relay", relay);
    return Gridway.OK;
  }
}
