package io.gridway.cluster;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.helix.ConfigAccessor;
import org.apache.helix.HelixAdmin;
import org.apache.helix.HelixException;
import org.apache.helix.constants.InstanceConstants;
import org.apache.helix.controller.rebalancer.DelayedAutoRebalancer;
import org.apache.helix.model.BuiltInStateModelDefinitions;
import org.apache.helix.model.IdealState;
import org.apache.helix.model.InstanceConfig;
import org.apache.helix.zookeeper.zkclient.exception.ZkNoNodeException;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster setup and operator actions, all idempotent: creating the Helix cluster and its state models
 * ({@link #init()}), relay resources, consumer groups (create, update, delete, pause, resume) and checkpoint
 * reset requests (carried out by the partition's next leader: {@link CheckpointResetOwner}). {@code gridway cluster init}, the controller host and the admin UI use it.
 *
 * <p>Resources: {@code relay.<source>} (OnlineOffline: every relay replica serves its partitions) and
 * {@code group.<name>} (LeaderStandby: one writer per partition). Each resource is restricted by an
 * instance tag of the same name to the instances that joined for it, so relays never get consumer
 * partitions and a consumer only gets the groups it runs.
 *
 * <p>Not thread-safe; short-lived (one per command). {@link #close()} it.
 */
public final class ClusterAdmin implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterAdmin.class);
  private static final int SETUP_ATTEMPTS = 8;
  private final ZkConfig zk;
  private final String cluster;
  private final HelixAdmin admin;

  public ClusterAdmin(ZkConfig zk, String cluster) {
    this.zk = zk;
    this.cluster = Helix.requireName(cluster, "cluster");
    this.admin = Helix.admin(zk);
  }

  /**
   * Creates the cluster and the LeaderStandby and OnlineOffline state models if missing; with {@link ZkTls#acl()}, then
   * gives the grid's ACL to the cluster's znodes that still have the open one ({@link #restrictOpenZnodes()}).
   * Idempotent.
   */
  public void init() {
    duringSetupRaces(this::initOnce);
    restrictOpenZnodes();
  }

  /**
   * With {@link ZkTls#acl()}: gives the grid's ACL to every znode of the cluster that still has ZooKeeper's open ACL,
   * those made before the ACL was configured and those Helix's managers made since (see {@link AclZkClients}).
   * Returns how many it changed; 0 without an ACL.
   */
  public int restrictOpenZnodes() {
    java.util.List<org.apache.zookeeper.data.ACL> acl = ZkAcl.of(zk.tls());
    if (acl == null) {
      return 0;
    }
    org.apache.helix.zookeeper.impl.client.ZkClient client = AclZkClients.open(zk, acl, null);
    try {
      int changed = ZkAcl.restrict(((org.apache.helix.zookeeper.zkclient.ZkConnection) client.getConnection()).getZookeeper(),
          "/" + cluster, acl);
      if (changed > 0) {
        LOG.info("ZooKeeper: restricted {} znode(s) under /{} that had the open ACL to {}", changed, cluster,
            ZkAcl.subjects(acl));
      }
      return changed;
    } catch (org.apache.zookeeper.KeeperException.NoAuthException e) {
      throw new IllegalStateException("ZooKeeper refused to change the ACL of " + e.getPath() + ": its ACL does not name "
          + "this process's certificate subject; set zkTls.acl to the subjects in that znode's ACL", e);
    } catch (org.apache.zookeeper.KeeperException e) {
      throw new IllegalStateException("ZooKeeper: cannot restrict the ACLs under /" + cluster + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while restricting the ACLs under /" + cluster, e);
    } finally {
      client.close();
    }
  }

  private void initOnce() {
    admin.addCluster(cluster, false);
    List<String> defs = admin.getStateModelDefs(cluster);
    for (BuiltInStateModelDefinitions def : List.of(BuiltInStateModelDefinitions.LeaderStandby, BuiltInStateModelDefinitions.OnlineOffline)) {
      if (!defs.contains(def.name())) {
        admin.addStateModelDef(cluster, def.name(), def.getStateModelDefinition());
      }
    }
  }

  /** Creates or updates {@code relay.<source>}: {@code partitions} partitions, each on {@code replicas} relays. */
  public void ensureRelayResource(String source, int partitions, int replicas) {
    duringSetupRaces(() -> ensureResource(Helix.relayResource(source), partitions, replicas, Helix.ONLINE_OFFLINE));
  }

  /** Creates the group, or updates its replicas if it exists. Its partition count cannot change. */
  public void createOrUpdateGroup(GroupSpec group) {
    duringSetupRaces(() -> ensureResource(Helix.groupResource(group.name()), group.partitions(), group.replicas(),
        Helix.LEADER_STANDBY));
  }

  /**
   * Runs a setup step again (up to {@value #SETUP_ATTEMPTS} times, 50 ms more wait each time) while it fails because
   * another process is creating the same znodes, or registering itself, at that moment: every unit of a one-VM install starts at once, and
   * Helix's checks are not atomic (two consumers of a new group both find no ideal state and the second create gets
   * NodeExists; {@code addCluster} returns as soon as the other's root exists, before its state model node does, so
   * the read after it gets NoNode). QuickstartIT saw the first: one consumer exited 1 at its very first start.
   */
  private static void duringSetupRaces(Runnable step) {
    for (int attempt = 1; ; attempt++) {
      try {
        step.run();
        return;
      } catch (RuntimeException e) {
        if (attempt == SETUP_ATTEMPTS || !isSetupRace(e)) {
          throw e;
        }
        try {
          Thread.sleep(50L * attempt);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private static boolean isSetupRace(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof KeeperException.NodeExistsException || t instanceof KeeperException.NoNodeException) {
        return true;
      }
      // Helix 1.4's addInstance reads every other instance's config; one being added at the same moment is listed
      // before its config exists ("fail to get config. instance: c2 is NOT setup in cluster: …")
      if (t instanceof HelixException && String.valueOf(t.getMessage()).contains("is NOT setup in cluster")) {
        return true;
      }
    }
    return false;
  }

  private void ensureResource(String resource, int partitions, int replicas, String stateModel) {
    IdealState existing = idealState(resource);
    if (existing != null) {
      if (existing.getNumPartitions() != partitions) {
        throw new IllegalArgumentException(resource + " has " + existing.getNumPartitions() + " partitions, not " + partitions
            + ": checkpoints are per partition; delete it and create it again to change that");
      }
      if (!Integer.toString(replicas).equals(existing.getReplicas())
          || !rebalancer(stateModel).equals(existing.getRebalancerClassName())) {
        existing.setReplicas(Integer.toString(replicas));
        existing.setRebalancerClassName(rebalancer(stateModel));
        admin.setResourceIdealState(cluster, resource, existing);
      }
      return;
    }
    IdealState is = new IdealState(resource);
    is.setStateModelDefRef(stateModel);
    is.setRebalanceMode(IdealState.RebalanceMode.FULL_AUTO);
    is.setRebalancerClassName(rebalancer(stateModel));
    is.setNumPartitions(partitions);
    is.setReplicas(Integer.toString(replicas));
    is.setInstanceGroupTag(resource);
    for (int p = 0; p < partitions; p++) {
      String name = Helix.partitionName(resource, p);
      is.getRecord().setListField(name, new ArrayList<>());
      is.getRecord().setMapField(name, new TreeMap<>());
    }
    try {
      admin.addResource(cluster, resource, is);
    } catch (RuntimeException e) {
      // created by another process since idealState() above (Helix says so by a HelixException "already exists" or
      // ZooKeeper's NodeExists, depending on the moment): check the one that won against this spec
      if (idealState(resource) == null) {
        throw e;
      }
      ensureResource(resource, partitions, replicas, stateModel);
    }
  }

  /**
   * Consumer groups use Helix's plain {@code AutoRebalancer}: it places each partition by the preference list
   * alone, so a consumer that comes back gets its even share of leaders again. The {@link DelayedAutoRebalancer}
   * keeps a leader that is no longer preferred until its successor is up, which under LeaderStandby (one leader
   * at most) left leaders uneven (5/5/2 of 12 after a kill -9 and return, stuck for minutes) in
   * ExactlyOnceGroupIT. Relays (OnlineOffline, make-before-break on purpose) keep the delayed one. Helix marks
   * AutoRebalancer deprecated in favour of those two, but it is still shipped and is the one that keeps leaders even.
   */
  @SuppressWarnings("deprecation")
  private static String rebalancer(String stateModel) {
    return (Helix.LEADER_STANDBY.equals(stateModel) ? org.apache.helix.controller.rebalancer.AutoRebalancer.class
        : DelayedAutoRebalancer.class).getName();
  }

  /** Deletes the group and its checkpoints. Its participants release its partitions first (Helix drops them). */
  public void deleteGroup(String group) {
    String resource = Helix.groupResource(group);
    IdealState is = idealState(resource);
    if (is != null) {
      // a group created again under this name must not inherit paused partitions
      for (int partition : Helix.pausedPartitions(is)) {
        List<String> name = List.of(Helix.partitionName(resource, partition));
        for (String instance : admin.getInstancesInClusterWithTag(cluster, resource)) {
          admin.enablePartition(true, cluster, instance, resource, name);
        }
      }
      admin.dropResource(cluster, resource);
    }
    try (ZkCheckpointStore store = ZkCheckpointStore.open(zk, cluster, Clock.systemUTC())) {
      store.deleteGroup(group);
    }
    try (GroupProgress progress = GroupProgress.open(zk, cluster)) {
      progress.deleteGroup(group);
    }
    try (CheckpointResets resets = CheckpointResets.open(zk, cluster)) {
      resets.deleteGroup(group);
    }
    try (SnapshotRequests snapshots = SnapshotRequests.open(zk, cluster)) {
      snapshots.deleteGroup(group);
    }
  }

  /** Pauses the group: every partition leaves LEADER (and STANDBY), so nothing is applied until {@link #resumeGroup}. */
  public void pauseGroup(String group) {
    admin.enableResource(cluster, requireGroup(group), false);
  }

  public void resumeGroup(String group) {
    admin.enableResource(cluster, requireGroup(group), true);
  }

  public boolean isPaused(String group) {
    return !requireIdealState(requireGroup(group)).isEnabled();
  }

  /**
   * Pauses one partition of the group: Helix takes it out of LEADER and STANDBY on every instance, so its leader's
   * {@link PartitionOwner#release} stops it (the same path as a group pause or a graceful move) and nothing of it is
   * applied until {@link #resumePartition}. Helix can disable a partition only per instance, so the intent is kept in
   * the group's ideal state ({@value Helix#PAUSED_FIELD}) and applied to every instance tagged for the group,
   * including one that registers later ({@link #registerInstance}). Idempotent.
   *
   * @throws IllegalArgumentException when the group or the partition does not exist
   */
  public void pausePartition(String group, int partition) {
    setPartitionPaused(group, partition, true);
  }

  /** Resumes a partition paused by {@link #pausePartition}: it starts again from its checkpoint. Idempotent. */
  public void resumePartition(String group, int partition) {
    setPartitionPaused(group, partition, false);
  }

  /** The partitions of {@code group} paused one by one (not those stopped by a whole-group {@link #pauseGroup}). */
  public java.util.SortedSet<Integer> pausedPartitions(String group) {
    return Helix.pausedPartitions(requireIdealState(requireGroup(group)));
  }

  private void setPartitionPaused(String group, int partition, boolean paused) {
    String resource = requireGroup(group);
    IdealState is = requireIdealState(resource);
    requirePartition(group, is, partition);
    java.util.SortedSet<Integer> set = Helix.pausedPartitions(is);
    if (paused ? set.add(partition) : set.remove(partition)) {
      // the intent first: an instance that registers from now on disables the partition itself
      Helix.setPausedPartitions(is, set);
      admin.setResourceIdealState(cluster, resource, is);
    }
    List<String> name = List.of(Helix.partitionName(resource, partition));
    for (String instance : admin.getInstancesInClusterWithTag(cluster, resource)) {
      admin.enablePartition(!paused, cluster, instance, resource, name);
    }
  }

  private static void requirePartition(String group, IdealState is, int partition) {
    if (partition < 0 || partition >= is.getNumPartitions()) {
      throw new IllegalArgumentException("group " + group + " has partitions 0.." + (is.getNumPartitions() - 1) + ", not " + partition);
    }
  }

  /**
   * Asks the partition's next leader to reset its checkpoint ({@link CheckpointResets}): works for every checkpoint
   * store, the target's of an exactly-once group included, because the consumer carries it out. Only while the group
   * or the partition is paused; it takes effect when the partition is resumed.
   *
   * @throws IllegalStateException when the partition is running
   * @throws IllegalArgumentException when the group has no such partition
   */
  public void requestCheckpointReset(String group, int partition, CheckpointResets.Request request) {
    IdealState is = requireIdealState(requireGroup(group));
    requirePartition(group, is, partition);
    if (is.isEnabled() && !Helix.pausedPartitions(is).contains(partition)) {
      throw new IllegalStateException("group " + group + " partition " + partition
          + " is running: pause it (or the group) before resetting its checkpoint");
    }
    try (CheckpointResets resets = CheckpointResets.open(zk, cluster)) {
      resets.request(group, partition, request);
    }
  }

  /** Cancels a reset not carried out yet; true if there was one. */
  public boolean cancelCheckpointReset(String group, int partition) {
    requirePartition(group, requireIdealState(requireGroup(group)), partition);
    try (CheckpointResets resets = CheckpointResets.open(zk, cluster)) {
      return resets.remove(group, partition);
    }
  }

  /**
   * Enables or disables an instance: a disabled one keeps its registration but Helix moves every partition off it
   * (a relay stops serving, a consumer stops leading) until it is enabled again; a restart of the process keeps it
   * disabled.
   *
   * @throws IllegalArgumentException when the cluster has no such instance
   */
  public void enableInstance(String instance, boolean enabled) {
    if (!admin.getInstancesInCluster(cluster).contains(Helix.requireName(instance, "instance"))) {
      throw new IllegalArgumentException("no instance " + instance + " in cluster " + cluster);
    }
    admin.setInstanceOperation(cluster, instance,
        enabled ? InstanceConstants.InstanceOperation.ENABLE : InstanceConstants.InstanceOperation.DISABLE);
  }

  /** Registers or updates a participant: its endpoint and tags (the resources it may hold). */
  void registerInstance(String instance, String endpoint, List<String> tags) {
    Helix.requireName(instance, "instance");
    duringSetupRaces(() -> registerInstanceOnce(instance, endpoint, tags));
  }

  private void registerInstanceOnce(String instance, String endpoint, List<String> tags) {
    if (!admin.getInstancesInCluster(cluster).contains(instance)) {
      InstanceConfig config = new InstanceConfig(instance);
      fill(config, endpoint, tags);
      admin.addInstance(cluster, config);
    } else {
      InstanceConfig config = admin.getInstanceConfig(cluster, instance);
      String hostAndPort = config.getHostName() + ":" + config.getPort();
      fill(config, endpoint, tags);
      if (hostAndPort.equals(config.getHostName() + ":" + config.getPort())) {
        admin.setInstanceConfig(cluster, instance, config);
      } else {
        // HelixAdmin.setInstanceConfig refuses a changed host or port, which a relay restarted on another port or VM has
        ConfigAccessor configs = new ConfigAccessor.Builder().setZkAddress(zk.requireConnectString()).build();
        try {
          configs.setInstanceConfig(cluster, instance, config);
        } finally {
          configs.close();
        }
      }
    }
    enableIfUnknown(instance);
  }

  /**
   * Helix 1.4's {@code addInstance} checks the new instance against every other instance's config; when another
   * participant is being added at that moment (every unit of a one-VM install starts at once) its config is not there
   * yet, and Helix logs an ERROR ("instance: consumer-2 is NOT setup in cluster") and gives the new instance the
   * operation UNKNOWN, which its rebalancer never assigns replicas to, for good: QuickstartIT saw a consumer that never
   * got a partition. UNKNOWN otherwise comes from logical-id swaps, which Gridway does not use, so it is put back to
   * ENABLE here, on every registration (a process restarted after that race heals too).
   */
  private void enableIfUnknown(String instance) {
    InstanceConfig config = admin.getInstanceConfig(cluster, instance);
    if (config.getInstanceOperation().getOperation() == InstanceConstants.InstanceOperation.UNKNOWN) {
      admin.setInstanceOperation(cluster, instance, InstanceConstants.InstanceOperation.ENABLE);
      LOG.warn("instance {} of cluster {} was left UNKNOWN (not assignable) by a registration racing another one; "
          + "set to ENABLE", instance, cluster);
    }
  }

  /** An instance joining a group takes the group's paused partitions ({@link #pausePartition}). */
  private void fill(InstanceConfig config, String endpoint, List<String> tags) {
    fillIdentity(config, endpoint, tags);
    for (String tag : tags) {
      IdealState is = tag.startsWith(Helix.GROUP_PREFIX) ? idealState(tag) : null;
      if (is != null) {
        for (int partition : Helix.pausedPartitions(is)) {
          config.setInstanceEnabledForPartition(tag, Helix.partitionName(tag, partition), false);
        }
      }
    }
  }

  private static void fillIdentity(InstanceConfig config, String endpoint, List<String> tags) {
    java.net.URI uri = java.net.URI.create(endpoint);
    config.setHostName(uri.getHost());
    config.setPort(Integer.toString(uri.getPort()));
    config.getRecord().setSimpleField(Helix.ENDPOINT_FIELD, endpoint);
    for (String tag : tags) {
      if (!config.containsTag(tag)) {
        config.addTag(tag);
      }
    }
  }

  /** The spec of every consumer group. */
  public Map<String, GroupSpec> groups() {
    Map<String, GroupSpec> groups = new TreeMap<>();
    for (String resource : admin.getResourcesInCluster(cluster)) {
      if (resource.startsWith(Helix.GROUP_PREFIX)) {
        IdealState is = idealState(resource);
        if (is != null) {
          String name = resource.substring(Helix.GROUP_PREFIX.length());
          groups.put(name, new GroupSpec(name, is.getNumPartitions(), Integer.parseInt(is.getReplicas())));
        }
      }
    }
    return groups;
  }

  private String requireGroup(String group) {
    if (!clusterIsSetUp()) {
      throw new IllegalArgumentException("no cluster " + cluster + " in ZooKeeper " + zk.connectString()
          + ": check the cluster name, or set it up with gridway cluster init");
    }
    String resource = Helix.groupResource(group);
    requireIdealState(resource);
    return resource;
  }

  private IdealState requireIdealState(String resource) {
    IdealState is = idealState(resource);
    if (is == null) {
      throw new IllegalArgumentException("no such resource: " + resource + " in cluster " + cluster);
    }
    return is;
  }

  private IdealState idealState(String resource) {
    if (!clusterIsSetUp()) {
      return null; // not set up: Helix would throw a HelixException naming no cause
    }
    return admin.getResourcesInCluster(cluster).contains(resource) ? admin.getResourceIdealState(cluster, resource) : null;
  }

  /**
   * Whether the cluster's resources can be listed. Not Helix's getClusters(): it checks every root znode as a cluster and
   * logs a 14-line WARN for ZooKeeper's own /zookeeper on each call, at every consumer start.
   */
  private boolean clusterIsSetUp() {
    try {
      admin.getResourcesInCluster(cluster);
      return true;
    } catch (ZkNoNodeException notSetUp) {
      return false;
    }
  }

  @Override
  public void close() {
    admin.close();
  }
}
