package io.gridway.cluster.internal;

import org.apache.helix.NotificationContext;
import org.apache.helix.model.Message;
import org.apache.helix.participant.statemachine.StateModel;
import org.apache.helix.participant.statemachine.StateModelInfo;
import org.apache.helix.participant.statemachine.Transition;

/**
 * One partition of a consumer group on this instance. LEADER is the only active state; leaving it (to
 * STANDBY, through ERROR, or by {@link #reset()} when the session is lost or the manager disconnects)
 * deactivates the partition before the transition returns, which is what makes Helix's LeaderStandby
 * break-before-make. Transitions of one partition are serialised by Helix; {@link #reset()} may come from
 * another thread, hence the lock.
 */
@StateModelInfo(initialState = "OFFLINE", states = {"LEADER", "STANDBY", "OFFLINE", "DROPPED", "ERROR"})
public final class LeaderStandbyModel extends StateModel {
  private final String resource;
  private final int partition;
  private final PartitionCallbacks callbacks;
  private boolean active; // guarded by this

  public LeaderStandbyModel(String resource, int partition, PartitionCallbacks callbacks) {
    this.resource = resource;
    this.partition = partition;
    this.callbacks = callbacks;
  }

  @Transition(from = "OFFLINE", to = "STANDBY")
  public void onBecomeStandbyFromOffline(Message message, NotificationContext context) {}

  @Transition(from = "STANDBY", to = "LEADER")
  public synchronized void onBecomeLeaderFromStandby(Message message, NotificationContext context) {
    callbacks.activate(resource, partition);
    active = true;
  }

  @Transition(from = "LEADER", to = "STANDBY")
  public void onBecomeStandbyFromLeader(Message message, NotificationContext context) {
    deactivate();
  }

  @Transition(from = "STANDBY", to = "OFFLINE")
  public void onBecomeOfflineFromStandby(Message message, NotificationContext context) {
    deactivate();
  }

  @Transition(from = "OFFLINE", to = "DROPPED")
  public void onBecomeDroppedFromOffline(Message message, NotificationContext context) {}

  @Transition(from = "ERROR", to = "OFFLINE")
  public void onBecomeOfflineFromError(Message message, NotificationContext context) {
    deactivate();
  }

  @Override
  public void reset() {
    deactivate();
  }

  /** Stops the partition if it is active here. */
  public synchronized void deactivate() {
    if (active) {
      active = false;
      callbacks.deactivate(resource, partition);
    }
  }
}
