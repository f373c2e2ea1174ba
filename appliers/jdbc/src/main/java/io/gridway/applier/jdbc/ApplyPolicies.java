package io.gridway.applier.jdbc;

import io.gridway.policy.ApplyPolicy;
import io.gridway.policy.Policy;
import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyFile;
import io.gridway.policy.PolicyLoader;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer's apply policy ({@code applier.jdbc.policy}): the {@code route} and {@code conflict} rules
 * the applier follows per source table (DESIGN §7, "apply"), kept current. A daemon thread checks the file
 * every interval; a changed file that loads takes effect from the next batch the applier starts (it reads
 * {@link #get()} once per target transaction, so one transaction never mixes two versions); one that does
 * not load is logged once with every error ({@code file:line:column: rule: reason}) and the version in
 * force stays.
 *
 * <p>Metrics: {@code gridway.consumer.policy.version} (the version in force) and {@code
 * gridway.consumer.policy.reload.rejected} (1 while the newest file content is rejected). Thread-safe.
 */
public final class ApplyPolicies implements Supplier<ApplyPolicy>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ApplyPolicies.class);

  private final PolicyFile file;
  private final ScheduledExecutorService timer;
  private String reportedError;

  private ApplyPolicies(PolicyFile file, Duration interval) {
    this.file = file;
    if (interval.isZero()) {
      this.timer = null;
    } else {
      this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gridway-apply-policy");
        t.setDaemon(true);
        return t;
      });
      timer.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Loads the policy file and starts checking it every {@code interval} (0: never reloaded).
   *
   * @throws PolicyException with every error of the file, each naming file, line, rule and reason
   */
  public static ApplyPolicies start(Path path, Duration interval, MeterRegistry meters) throws PolicyException {
    PolicyFile file = PolicyFile.load(path, PolicyLoader.create());
    Policy p = file.current();
    LOG.info("apply policy {} version {} from {} in force", p.name(), p.version(), p.file());
    ApplyPolicies policies = new ApplyPolicies(file, interval);
    Gauge.builder("gridway.consumer.policy.version", file, f -> f.current().version()).register(meters);
    Gauge.builder("gridway.consumer.policy.reload.rejected", file, f -> f.lastError() == null ? 0 : 1).register(meters);
    return policies;
  }

  /** The apply evaluator of the version in force. */
  @Override
  public ApplyPolicy get() {
    return file.current().apply();
  }

  /** The policy in force (name, version, file). */
  public Policy current() {
    return file.current();
  }

  /** Why the newest content of the file was not taken, or null. */
  public String lastError() {
    return file.lastError();
  }

  /** Reloads now if the file changed (the timer's job; tests call it to avoid waiting). */
  public synchronized void check() {
    Policy next;
    try {
      next = file.check();
    } catch (RuntimeException e) { // keep the timer alive: the version in force stays
      LOG.error("apply policy {}: reload failed, version {} stays in force", file.file(), file.current().version(), e);
      return;
    }
    if (next != null) {
      LOG.info("apply policy {} version {} reloaded from {}; applies from the next batch", next.name(), next.version(), next.file());
    }
    String error = file.lastError();
    if (error != null && !Objects.equals(error, reportedError)) {
      LOG.error("changed apply policy {} rejected, version {} stays in force: {}", file.file(), file.current().version(), error);
    }
    reportedError = error;
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
