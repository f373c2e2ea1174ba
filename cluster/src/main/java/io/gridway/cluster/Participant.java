package io.gridway.cluster;

import io.gridway.cluster.internal.LeaderStandbyModel;
import io.gridway.cluster.internal.OnlineOfflineModel;
import io.gridway.cluster.internal.PartitionCallbacks;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.helix.HelixManager;
import org.apache.helix.InstanceType;
import org.apache.helix.participant.statemachine.StateModel;
import org.apache.helix.participant.statemachine.StateModelFactory;

/**
 * The lifecycle shared by consumer and relay participants: register the instance (endpoint, tags), join
 * with a state model factory, and leave with every active partition stopped before the session closes.
 * Thread-safe.
 */
final class Participant implements AutoCloseable {
  private final ZkConfig zk;
  private final String cluster;
  private final String instance;
  private final String endpoint;
  private final List<String> tags;
  private final String stateModel;
  private final PartitionCallbacks callbacks;
  private final Map<String, StateModel> models = new ConcurrentHashMap<>();
  private HelixManager manager; // guarded by this

  Participant(ZkConfig zk, String cluster, Identity identity, List<String> tags, String stateModel, PartitionCallbacks callbacks) {
    this.zk = zk;
    this.cluster = Helix.requireName(cluster, "cluster");
    this.instance = Helix.requireName(identity.instance(), "instance");
    this.endpoint = identity.endpoint();
    this.tags = List.copyOf(tags);
    this.stateModel = stateModel;
    this.callbacks = callbacks;
  }

  /** An instance's name and advertised HTTP endpoint ({@code http://host:port}). */
  record Identity(String instance, String endpoint) {}

  synchronized void start() {
    if (manager != null) {
      throw new IllegalStateException(instance + " already started");
    }
    try (ClusterAdmin admin = new ClusterAdmin(zk, cluster)) {
      admin.registerInstance(instance, endpoint, tags);
    }
    HelixManager m = Helix.manager(zk, cluster, instance, InstanceType.PARTICIPANT);
    m.getStateMachineEngine().registerStateModelFactory(stateModel, new StateModelFactory<StateModel>() {
      @Override
      public StateModel createNewStateModel(String resource, String partitionName) {
        int partition = Helix.partitionNumber(partitionName);
        StateModel model = Helix.LEADER_STANDBY.equals(stateModel)
            ? new LeaderStandbyModel(resource, partition, callbacks)
            : new OnlineOfflineModel(resource, partition, callbacks);
        models.put(partitionName, model);
        return model;
      }
    });
    try {
      m.connect();
    } catch (Exception e) {
      m.disconnect();
      throw new IllegalStateException(instance + " cannot join cluster " + cluster + ": " + e.getMessage(), e);
    }
    manager = m;
  }

  synchronized boolean isConnected() {
    return manager != null && manager.isConnected();
  }

  String instance() {
    return instance;
  }

  /** The ZooKeeper session id of this participant (hex), for tests and status. */
  synchronized String sessionId() {
    return manager == null ? null : manager.getSessionId();
  }

  /**
   * Stops every active partition, then leaves the cluster. Stopping first keeps a graceful leave
   * break-before-make: the successors are chosen when the session closes, after everything here stopped.
   */
  @Override
  public synchronized void close() {
    if (manager == null) {
      return;
    }
    try {
      for (StateModel model : models.values()) {
        if (model instanceof LeaderStandbyModel ls) {
          ls.deactivate();
        } else if (model instanceof OnlineOfflineModel oo) {
          oo.deactivate();
        }
      }
    } finally {
      manager.disconnect();
      manager = null;
    }
  }
}
