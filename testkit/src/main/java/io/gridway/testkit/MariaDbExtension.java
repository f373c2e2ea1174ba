package io.gridway.testkit;

/**
 * Gives a test class a {@link PrivateMariaDb}: the JVM's {@linkplain #shared() shared} one, or a
 * {@linkplain #dedicated() dedicated} one started before the class's tests and closed after them.
 *
 * <pre>{@code
 * @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
 *
 * @Test void somethingWorks() throws Exception {
 *   String db = MARIADB.server().createDatabase("orders");
 *   MARIADB.server().execute(db, "CREATE TABLE t (id INT PRIMARY KEY)",
 *       "INSERT INTO t VALUES (1)");
 * }
 * }</pre>
 *
 * <p>Register it in a {@code static} field (so that its server outlives each test), or with
 * {@code @ExtendWith(MariaDbExtension.class)} for the shared server. Test and lifecycle methods may
 * also take a {@code PrivateMariaDb} parameter; do not register two of these extensions in one
 * class if you do.
 *
 * <p>Thread-safe.
 */
public final class MariaDbExtension extends ServerExtension<PrivateMariaDb> {

  /** The shared server; for {@code @ExtendWith}. */
  public MariaDbExtension() {
    this(true);
  }

  private MariaDbExtension(boolean shared) {
    super(PrivateMariaDb.class, shared, shared ? PrivateMariaDb::shared : PrivateMariaDb::dedicated, PrivateMariaDb::shutdown);
  }

  /** The JVM's shared server: never stop or restart it; use a fresh database or path per test. */
  public static MariaDbExtension shared() {
    return new MariaDbExtension(true);
  }

  /** A server of this test class's own, which its tests may stop, restart or kill. */
  public static MariaDbExtension dedicated() {
    return new MariaDbExtension(false);
  }
}
