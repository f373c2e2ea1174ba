package io.gridway.relay.policy;

import io.gridway.policy.Policy;
import io.gridway.policy.PolicyError;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the fetch policy files at start-up and, when {@link #check} finds that one of them changed
 * (modification time or size), compiles them all again and swaps them into {@link ActivePolicies}. An
 * invalid new version is logged with every error and the old one stays in force. Polling rather than
 * a {@code WatchService}: it sees edits through symlinks (Kubernetes ConfigMaps) and costs one
 * {@code stat} per file per interval.
 *
 * <p>{@link #check} is called from one scheduler thread; not thread-safe otherwise.
 */
public final class PolicyReloader {
  private static final Logger LOG = LoggerFactory.getLogger(PolicyReloader.class);

  private final String sourceId;
  private final List<Path> files;
  private final PolicyLoader loader;
  private final ActivePolicies active;
  private List<String> seen;

  private PolicyReloader(String sourceId, List<Path> files, PolicyLoader loader, ActivePolicies active, List<String> seen) {
    this.sourceId = sourceId;
    this.files = files;
    this.loader = loader;
    this.active = active;
    this.seen = seen;
  }

  /** Loads the configured files now; a policy error here stops the relay from starting. */
  public static PolicyReloader start(String sourceId, PolicyConfig config, PolicyLoader loader) throws PolicyException {
    List<Path> files = config.files().stream().map(Path::of).toList();
    List<String> stamps = stamps(files);
    List<Policy> policies = loader.loadAll(files);
    for (Policy p : policies) {
      LOG.info("source {}: policy {} version {} from {} in force", sourceId, p.name(), p.version(), p.file());
    }
    return new PolicyReloader(sourceId, files, loader, new ActivePolicies(policies), stamps);
  }

  public ActivePolicies active() {
    return active;
  }

  public List<Path> files() {
    return files;
  }

  /** Reloads when a file changed since the last check. */
  public void check() {
    List<String> now = stamps(files);
    if (now.equals(seen)) {
      return;
    }
    seen = now;
    try {
      List<Policy> next = loader.loadAll(files);
      active.replace(next);
      for (Policy p : next) {
        LOG.info("source {}: policy {} version {} reloaded from {}; applies from the next window", sourceId, p.name(), p.version(), p.file());
      }
    } catch (PolicyException e) {
      String errors = e.errors().stream().map(PolicyError::toString).collect(Collectors.joining("; "));
      active.rejected(errors);
      LOG.error("source {}: changed policy rejected, the previous version stays in force: {}", sourceId, errors);
    }
  }

  private static List<String> stamps(List<Path> files) {
    List<String> stamps = new ArrayList<>(files.size());
    for (Path file : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        stamps.add(a.lastModifiedTime().toMillis() + "/" + a.size() + "/" + Objects.toString(a.fileKey()));
      } catch (IOException e) {
        stamps.add("missing");
      }
    }
    return stamps;
  }
}
