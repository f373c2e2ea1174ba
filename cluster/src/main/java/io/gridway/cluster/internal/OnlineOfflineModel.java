package io.gridway.cluster.internal;

import org.apache.helix.NotificationContext;
import org.apache.helix.model.Message;
import org.apache.helix.participant.statemachine.StateModel;
import org.apache.helix.participant.statemachine.StateModelInfo;
import org.apache.helix.participant.statemachine.Transition;

/** One partition of a relay resource on this relay: ONLINE means served here. Locking as {@link LeaderStandbyModel}. */
@StateModelInfo(initialState = "OFFLINE", states = {"ONLINE", "OFFLINE", "DROPPED", "ERROR"})
public final class OnlineOfflineModel extends StateModel {
  private final String resource;
  private final int partition;
  private final PartitionCallbacks callbacks;
  private boolean active; // guarded by this

  public OnlineOfflineModel(String resource, int partition, PartitionCallbacks callbacks) {
    this.resource = resource;
    this.partition = partition;
    this.callbacks = callbacks;
  }

  @Transition(from = "OFFLINE", to = "ONLINE")
  public synchronized void onBecomeOnlineFromOffline(Message message, NotificationContext context) {
    callbacks.activate(resource, partition);
    active = true;
  }

  @Transition(from = "ONLINE", to = "OFFLINE")
  public void onBecomeOfflineFromOnline(Message message, NotificationContext context) {
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

  public synchronized void deactivate() {
    if (active) {
      active = false;
      callbacks.deactivate(resource, partition);
    }
  }
}
