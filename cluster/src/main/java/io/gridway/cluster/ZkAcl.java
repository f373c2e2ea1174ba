package io.gridway.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;

/**
 * The ACL of the grid's znodes when {@link ZkTls#acl()} is set: every permission for each listed certificate subject
 * in ZooKeeper's {@code x509} scheme, nothing for anyone else. ZooKeeper's server authenticates a TLS client by its
 * certificate at every (re)connection, so the identity survives the session re-creation Helix does on expiry, which a
 * {@code digest} password added with {@code addAuthInfo} does not.
 *
 * <p>Stateless.
 */
final class ZkAcl {
  private ZkAcl() {}

  /** The ACL for new znodes, or null for ZooKeeper's open ACL (no {@code acl} configured). */
  static List<ACL> of(ZkTls tls) {
    if (tls == null || tls.acl() == null) {
      return null;
    }
    List<ACL> acl = new ArrayList<>();
    for (String subject : tls.acl()) {
      acl.add(new ACL(ZooDefs.Perms.ALL, new Id("x509", subject)));
    }
    return java.util.Collections.unmodifiableList(acl); // not List.copyOf: ZooKeeper asks it contains(null)
  }

  /** Whether {@code acl} is the open one Helix gives every znode it creates. */
  static boolean isOpen(List<ACL> acl) {
    return acl != null && acl.equals(ZooDefs.Ids.OPEN_ACL_UNSAFE);
  }

  /**
   * Gives every znode under {@code root} (and {@code root}) that still has the open ACL the grid's {@code acl}: znodes
   * made before {@code acl} was configured, and those Helix's managers create (which this module cannot hand a client
   * of its own). Returns how many it changed. A znode deleted during the walk is skipped; one created during it may be
   * missed (the next walk finds it).
   */
  static int restrict(ZooKeeper zk, String root, List<ACL> acl) throws KeeperException, InterruptedException {
    int changed = 0;
    List<String> pending = new ArrayList<>(List.of(root));
    while (!pending.isEmpty()) {
      String path = pending.remove(pending.size() - 1);
      try {
        Stat stat = new Stat();
        if (isOpen(zk.getACL(path, stat))) {
          zk.setACL(path, acl, stat.getAversion());
          changed++;
        }
        for (String child : zk.getChildren(path, false)) {
          pending.add(path + "/" + child);
        }
      } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
        // deleted, or its ACL changed, meanwhile: nothing of ours to restrict
      }
    }
    return changed;
  }

  static String subjects(List<ACL> acl) {
    return acl.stream().map(a -> a.getId().getScheme() + ":" + a.getId().getId()).toList().toString();
  }
}
