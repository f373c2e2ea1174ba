package io.gridway.testkit;

/**
 * Gives a test class a {@link EmbeddedZooKeeper}: the JVM's {@linkplain #shared() shared} one, or a
 * {@linkplain #dedicated() dedicated} one started before the class's tests and closed after them.
 *
 * <pre>{@code
 * @RegisterExtension static final ZooKeeperExtension ZK = ZooKeeperExtension.shared();
 *
 * @Test void somethingWorks() throws Exception {
 *   String connectString = ZK.server().connectString();
 *   // a fresh root path per test, e.g. "/" + testInfo.getDisplayName(), keeps tests apart
 * }
 * }</pre>
 *
 * <p>Register it in a {@code static} field (so that its server outlives each test), or with
 * {@code @ExtendWith(ZooKeeperExtension.class)} for the shared server. Test and lifecycle methods
 * may also take a {@code EmbeddedZooKeeper} parameter; do not register two of these extensions in
 * one class if you do.
 *
 * <p>Thread-safe.
 */
public final class ZooKeeperExtension extends ServerExtension<EmbeddedZooKeeper> {

  /** The shared server; for {@code @ExtendWith}. */
  public ZooKeeperExtension() {
    this(true);
  }

  private ZooKeeperExtension(boolean shared) {
    super(EmbeddedZooKeeper.class, shared, shared ? EmbeddedZooKeeper::shared : EmbeddedZooKeeper::dedicated, EmbeddedZooKeeper::shutdown);
  }

  /** The JVM's shared server: never stop or restart it; use a fresh database or path per test. */
  public static ZooKeeperExtension shared() {
    return new ZooKeeperExtension(true);
  }

  /** A server of this test class's own, which its tests may stop, restart or kill. */
  public static ZooKeeperExtension dedicated() {
    return new ZooKeeperExtension(false);
  }
}
