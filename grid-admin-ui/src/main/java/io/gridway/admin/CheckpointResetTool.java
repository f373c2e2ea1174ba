package io.gridway.admin;

import io.gridway.cluster.ZkConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * {@code gridway cluster group reset}'s way to the admin service's reset: the same {@link ResetPlanner} the API's
 * {@code /groups/{group}/partitions/{partition}/reset} uses, run in the CLI's process against ZooKeeper and the
 * source's relays directly — so the CLI works where no admin service runs (a VM with only {@code gridway controller},
 * or while the admin service is down) and needs no login, yet plans, refuses and records a reset exactly as the UI
 * does: the same dry run, the same request the partition's next leader carries out ({@code CheckpointResets}).
 *
 * <p>A recorded reset is appended to the grid's audit trail in ZooKeeper ({@link io.gridway.cluster.AuditTrail}, signed
 * {@code cli}) with the entry the admin service makes of it, so the admin's audit page shows it. Thread-safe; {@link
 * #close()} it.
 */
public final class CheckpointResetTool implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CheckpointResetTool.class);
  /** How the CLI signs its entries of the grid's audit trail. */
  static final String BY = "cli";
  private final Grid grid;
  private final ResetPlanner planner;

  private CheckpointResetTool(Grid grid, ResetPlanner planner) {
    this.grid = grid;
    this.planner = planner;
  }

  /** Over {@code cluster} in {@code zk}; each ZooKeeper call waits at most {@code zkTimeout}, each relay 2 s. */
  public static CheckpointResetTool open(ZkConfig zk, String cluster, Duration zkTimeout) {
    return open(zk, cluster, zkTimeout, AdminSettings.Relays.NONE, Map.of());
  }

  /** As above, reaching relays with {@code relays}' TLS and token (the token's variable from {@code environment}). */
  public static CheckpointResetTool open(ZkConfig zk, String cluster, Duration zkTimeout, AdminSettings.Relays relays,
      Map<String, String> environment) {
    RelayHttp http = RelayHttp.of(relays, environment, Duration.ofSeconds(2));
    Grid grid = new Grid(zk, cluster, zkTimeout);
    return new CheckpointResetTool(grid, new ResetPlanner(grid, new RelayProbe(http), new CommitTimes(http, Clock.systemUTC()),
        group -> "gridway cluster group reset reads no consumer file, so it cannot check that group " + group + "'s consumers "
            + "load snapshots (start: snapshot or onEvicted: snapshot): one that does not skips to the SCN and loads nothing",
        Clock.systemUTC()));
  }

  /** A reset refused: {@code field} names the target's member to blame ({@code scn}, {@code time}, ...), or is null. */
  public static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String field;
    private final int status;

    Refused(ApiException e) {
      super(e.getMessage(), e);
      this.field = e.field;
      this.status = e.status.code();
    }

    public String field() {
      return field;
    }

    /** The HTTP status the API answers the same refusal with (400 bad input, 404 unknown, 409 state, 503 ZooKeeper). */
    public int status() {
      return status;
    }
  }

  /** The dry run of {@code target}. */
  public ResetPlan plan(String group, int partition, ResetTarget target) {
    try {
      return planner.plan(group, partition, target);
    } catch (ApiException e) {
      throw new Refused(e);
    }
  }

  /**
   * Records the reset if the partition is still as the dry run of {@code version} saw it; the plan with the reset
   * waiting.
   */
  public ResetPlan request(String group, int partition, ResetTarget target, String version, String user) {
    try {
      ResetPlanner.Confirmed done = planner.confirm(group, partition, target, version, user);
      try {
        grid.appendAudit(AuditLog.trailEntry(new AuditLog.Entry(Clock.systemUTC().instant().toString(), user, "partition.reset",
            done.auditTarget(), done.audited(), done.auditedAfter()), BY));
      } catch (RuntimeException e) {
        // the reset is recorded: failing the command now would say it was not
        LOG.warn("the reset of group {} partition {} is recorded, but not in the grid's audit trail: {}", group, partition,
            e.getMessage());
      }
      return done.after();
    } catch (ApiException e) {
      throw new Refused(e);
    }
  }

  @Override
  public void close() {
    grid.close();
  }
}
