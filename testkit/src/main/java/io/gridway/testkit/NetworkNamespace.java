package io.gridway.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Linux network namespace of a test's own, joined to this one by a veth pair, as a separate "host" whose network a
 * test can cut: the host end of the pair has {@code 10.251.<index>.1/30} here, the namespace end {@code .2} there (and
 * the namespace's own loopback). Processes started with {@link #command} run inside it and reach this side only at
 * {@link #hostAddress()} — servers on 127.0.0.1 through a {@link FaultProxy} bound there. {@link #partition()} adds a
 * blackhole route for the other end on both sides, so traffic between them is dropped by the kernel (established
 * connections hear nothing, new ones fail) until {@link #heal()}.
 *
 * <p>Needs root and {@code ip} (iproute2); CI runs as root. The namespace and the veth pair are named from {@code
 * name} (at most 10 characters): {@link #create} removes a leftover of that name first (a test killed before its
 * {@link #close()}), and {@link #close()} removes both. Two runs of one test on the same machine at once would share
 * the names. Thread-safe.
 */
public final class NetworkNamespace implements AutoCloseable {
  private static final long COMMAND_SECONDS = 30;

  private final String name;
  private final String hostLink;
  private final String hostAddress;
  private final String address;
  private boolean partitioned; // guarded by this

  private NetworkNamespace(String name, int index) {
    this.name = name;
    this.hostLink = name + "h";
    this.hostAddress = "10.251." + index + ".1";
    this.address = "10.251." + index + ".2";
  }

  /**
   * Creates namespace {@code name} with its veth pair on subnet {@code 10.251.<index>.0/30} (index 0–255, distinct per
   * namespace of a test), removing a leftover of the same name first.
   */
  public static NetworkNamespace create(String name, int index) {
    if (!name.matches("[a-z0-9]{1,10}") || index < 0 || index > 255) {
      throw new IllegalArgumentException("namespace name must be 1-10 of [a-z0-9] and index 0-255, got " + name + ", "
          + index);
    }
    NetworkNamespace ns = new NetworkNamespace(name, index);
    ns.remove();
    String peer = name + "n";
    try {
      ip("netns", "add", name);
      ip("link", "add", ns.hostLink, "type", "veth", "peer", "name", peer);
      ip("link", "set", peer, "netns", name);
      ip("addr", "add", ns.hostAddress + "/30", "dev", ns.hostLink);
      ip("link", "set", ns.hostLink, "up");
      ip("-n", name, "addr", "add", ns.address + "/30", "dev", peer);
      ip("-n", name, "link", "set", peer, "up");
      ip("-n", name, "link", "set", "lo", "up");
      return ns;
    } catch (RuntimeException e) {
      ns.remove();
      throw e;
    }
  }

  /** This side's address of the pair: what processes in the namespace connect to. */
  public String hostAddress() {
    return hostAddress;
  }

  /** The namespace's address of the pair: where its processes listen for this side. */
  public String address() {
    return address;
  }

  public String name() {
    return name;
  }

  /** {@code command} run inside the namespace ({@code ip netns exec <name> …}). */
  public List<String> command(List<String> command) {
    List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", name));
    all.addAll(command);
    return all;
  }

  /** Cuts the namespace off: a blackhole route for the other end's address on each side. Idempotent. */
  public synchronized void partition() {
    if (!partitioned) {
      ip("route", "add", "blackhole", address + "/32");
      ip("-n", name, "route", "add", "blackhole", hostAddress + "/32");
      partitioned = true;
    }
  }

  /** Removes the blackhole routes: held connections go on (TCP retransmits), new ones connect. Idempotent. */
  public synchronized void heal() {
    if (partitioned) {
      ip("route", "del", "blackhole", address + "/32");
      ip("-n", name, "route", "del", "blackhole", hostAddress + "/32");
      partitioned = false;
    }
  }

  /** Removes the namespace, the veth pair (with it) and this side's blackhole route; the namespace's processes lose it. */
  @Override
  public synchronized void close() {
    remove();
    partitioned = false;
  }

  private void remove() {
    tryIp("route", "del", "blackhole", address + "/32");
    tryIp("netns", "del", name);
    tryIp("link", "del", hostLink); // gone with the namespace's end, unless that was never moved there
  }

  private static void ip(String... args) {
    Result r = run(args);
    if (r.exit() != 0) {
      throw new IllegalStateException("ip " + String.join(" ", args) + " failed (exit " + r.exit() + "): " + r.output());
    }
  }

  private static void tryIp(String... args) {
    run(args);
  }

  private record Result(int exit, String output) {}

  private static Result run(String... args) {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("ip " + String.join(" ", args) + " did not finish in " + COMMAND_SECONDS + " s");
      }
      return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      throw new IllegalStateException("cannot run ip (iproute2 is needed for network namespaces; run as root): " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running ip " + String.join(" ", args), e);
    }
  }
}
