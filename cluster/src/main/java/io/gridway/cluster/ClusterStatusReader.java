package io.gridway.cluster;

import io.gridway.core.checkpoint.Checkpoint;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.helix.HelixAdmin;
import org.apache.helix.PropertyPathBuilder;
import org.apache.helix.model.ExternalView;
import org.apache.helix.model.IdealState;
import org.apache.helix.model.InstanceConfig;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.apache.zookeeper.data.Stat;

/** Reads {@link ClusterStatus} snapshots. Not thread-safe; {@link #close()} it. */
public final class ClusterStatusReader implements AutoCloseable {
  private final String cluster;
  private final HelixAdmin admin;
  private final ZkCheckpointStore checkpoints;
  private final PropertyStore raw;
  private final GroupProgress progress;

  public ClusterStatusReader(ZkConfig zk, String cluster) {
    this.cluster = Helix.requireName(cluster, "cluster");
    this.admin = Helix.admin(zk);
    this.checkpoints = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC());
    this.raw = new PropertyStore(zk, cluster);
    this.progress = GroupProgress.over(raw);
  }

  public ClusterStatus read() {
    List<String> live = raw.accessor.getChildNames(PropertyPathBuilder.liveInstance(cluster), 0);
    List<ClusterStatus.Instance> instances = new ArrayList<>();
    for (String name : admin.getInstancesInCluster(cluster)) {
      InstanceConfig c = admin.getInstanceConfig(cluster, name);
      instances.add(new ClusterStatus.Instance(name, c.getRecord().getSimpleField(Helix.ENDPOINT_FIELD),
          live != null && live.contains(name), c.getInstanceEnabled(), List.copyOf(c.getTags())));
    }
    List<ClusterStatus.Resource> resources = new ArrayList<>();
    for (String resource : admin.getResourcesInCluster(cluster)) {
      IdealState is = admin.getResourceIdealState(cluster, resource);
      if (is == null) {
        continue;
      }
      boolean group = resource.startsWith(Helix.GROUP_PREFIX);
      ExternalView ev = admin.getResourceExternalView(cluster, resource);
      List<ClusterStatus.Partition> partitions = new ArrayList<>();
      Map<Integer, GroupProgress.Report> reports = group
          ? progress.read(resource.substring(Helix.GROUP_PREFIX.length())) : Map.of();
      for (int p = 0; p < is.getNumPartitions(); p++) {
        Map<String, String> states = new TreeMap<>();
        if (ev != null && ev.getStateMap(Helix.partitionName(resource, p)) != null) {
          states.putAll(ev.getStateMap(Helix.partitionName(resource, p)));
        }
        Checkpoint checkpoint = null;
        Long generation = null;
        if (group) {
          String name = resource.substring(Helix.GROUP_PREFIX.length());
          checkpoint = checkpoints.read(name, p).stream().filter(Checkpoint::isWhole).findFirst().orElse(null);
          generation = checkpoints.generation(name, p).orElse(null);
        }
        partitions.add(new ClusterStatus.Partition(p, states, checkpoint == null ? null : checkpoint.scn().value(), generation,
            checkpoint == null ? null : checkpoint.updated().toEpochMilli(), reports.get(p)));
      }
      resources.add(new ClusterStatus.Resource(resource, group ? "group" : "relay", is.getNumPartitions(),
          Integer.parseInt(is.getReplicas()), is.isEnabled(), partitions,
          group ? List.copyOf(Helix.pausedPartitions(is)) : List.of()));
    }
    ZNRecord leader = raw.accessor.get(PropertyPathBuilder.controllerLeader(cluster), new Stat(), 0);
    return new ClusterStatus(cluster, leader == null ? null : leader.getId(), instances, resources);
  }

  @Override
  public void close() {
    try {
      admin.close();
    } finally {
      try {
        checkpoints.close();
      } finally {
        raw.close();
      }
    }
  }
}
