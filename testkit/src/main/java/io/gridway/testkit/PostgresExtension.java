package io.gridway.testkit;

/**
 * Gives a test class a {@link PrivatePostgres}: the JVM's {@linkplain #shared() shared} one, or a
 * {@linkplain #dedicated() dedicated} one started before the class's tests and closed after them.
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.shared();
 *
 * @Test void somethingWorks() throws Exception {
 *   String db = POSTGRES.server().createDatabase("orders");
 *   try (Connection c = POSTGRES.server().connect(db)) { ... }
 * }
 * }</pre>
 *
 * <p>Register it in a {@code static} field (so that its server outlives each test), or with
 * {@code @ExtendWith(PostgresExtension.class)} for the shared server. Test and lifecycle methods
 * may also take a {@code PrivatePostgres} parameter; do not register two of these extensions in one
 * class if you do.
 *
 * <p>Thread-safe.
 */
public final class PostgresExtension extends ServerExtension<PrivatePostgres> {

  /** The shared server; for {@code @ExtendWith}. */
  public PostgresExtension() {
    this(true);
  }

  private PostgresExtension(boolean shared) {
    super(PrivatePostgres.class, shared, shared ? PrivatePostgres::shared : PrivatePostgres::dedicated, PrivatePostgres::shutdown);
  }

  /** The JVM's shared server: never stop or restart it; use a fresh database or path per test. */
  public static PostgresExtension shared() {
    return new PostgresExtension(true);
  }

  /** A server of this test class's own, which its tests may stop, restart or kill. */
  public static PostgresExtension dedicated() {
    return new PostgresExtension(false);
  }
}
