package io.gridway.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.Record;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.CreateTTLRequest;

/**
 * A ZooKeeper client that creates znodes with the grid's ACL where its caller asked for the open one. Helix 1.4 passes
 * {@code OPEN_ACL_UNSAFE} on every create, synchronous, asynchronous and in {@code multi}, and has no setting for it;
 * every create of every Helix client reaches one of the methods below, so this is the one place to change it. An
 * explicit ACL other than the open one is passed through.
 *
 * <p>Thread-safe as {@link ZooKeeper} is.
 */
@SuppressWarnings("try") // ZooKeeper.close() throws InterruptedException; inherited as is
final class AclZooKeeper extends ZooKeeper {
  private final List<ACL> acl;

  AclZooKeeper(String connectString, int sessionTimeout, Watcher watcher, List<ACL> acl) throws IOException {
    super(connectString, sessionTimeout, watcher);
    // a mutable copy, read-only: ZooKeeper's validateACL asks contains(null), which List.copyOf's lists refuse
    this.acl = java.util.Collections.unmodifiableList(new ArrayList<>(acl));
  }

  private List<ACL> replace(List<ACL> asked) {
    return ZkAcl.isOpen(asked) ? acl : asked;
  }

  @Override
  public String create(String path, byte[] data, List<ACL> asked, CreateMode mode)
      throws KeeperException, InterruptedException {
    return super.create(path, data, replace(asked), mode);
  }

  @Override
  public String create(String path, byte[] data, List<ACL> asked, CreateMode mode, Stat stat)
      throws KeeperException, InterruptedException {
    return super.create(path, data, replace(asked), mode, stat);
  }

  @Override
  public String create(String path, byte[] data, List<ACL> asked, CreateMode mode, Stat stat, long ttl)
      throws KeeperException, InterruptedException {
    return super.create(path, data, replace(asked), mode, stat, ttl);
  }

  @Override
  public void create(String path, byte[] data, List<ACL> asked, CreateMode mode, AsyncCallback.StringCallback cb,
      Object ctx) {
    super.create(path, data, replace(asked), mode, cb, ctx);
  }

  @Override
  public void create(String path, byte[] data, List<ACL> asked, CreateMode mode, AsyncCallback.Create2Callback cb,
      Object ctx) {
    super.create(path, data, replace(asked), mode, cb, ctx);
  }

  @Override
  public void create(String path, byte[] data, List<ACL> asked, CreateMode mode, AsyncCallback.Create2Callback cb,
      Object ctx, long ttl) {
    super.create(path, data, replace(asked), mode, cb, ctx, ttl);
  }

  @Override
  public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
    return super.multi(replace(ops));
  }

  @Override
  public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback cb, Object ctx) {
    super.multi(replace(ops), cb, ctx);
  }

  private List<Op> replace(Iterable<Op> ops) {
    List<Op> replaced = new ArrayList<>();
    for (Op op : ops) {
      replaced.add(op instanceof Op.Create ? replace(op) : op);
    }
    return replaced;
  }

  private Op replace(Op create) {
    Record request = create.toRequestRecord();
    if (request instanceof CreateTTLRequest ttl && ZkAcl.isOpen(ttl.getAcl())) {
      return Op.create(ttl.getPath(), ttl.getData(), acl, ttl.getFlags(), ttl.getTtl());
    }
    if (request instanceof CreateRequest plain && ZkAcl.isOpen(plain.getAcl())) {
      return Op.create(plain.getPath(), plain.getData(), acl, plain.getFlags());
    }
    return create;
  }
}
