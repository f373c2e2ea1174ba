package io.gridway.testkit;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * What the three JUnit extensions ({@link MariaDbExtension}, {@link PostgresExtension}, {@link
 * ZooKeeperExtension}) have in common: which server a test class gets (the JVM's shared one or its
 * own), when that server starts and when it is closed, and resolving it as a test parameter.
 *
 * <p>A dedicated server is closed after all tests of the class that started it, not of its
 * {@code @Nested} classes, which see the same extension. The shared server is closed when the JUnit
 * run ends (through the root context's store, which closes {@link AutoCloseable} values), with the
 * JVM shutdown hook as a safety net. Thread-safe.
 */
public abstract class ServerExtension<T> implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ServerExtension.class);

  private final Class<T> type;
  private final boolean shared;
  private final Supplier<T> starter;
  private final Consumer<T> shutdown;
  private T server; // guarded by this
  private String owner; // unique id of the context whose afterAll closes a dedicated server

  ServerExtension(Class<T> type, boolean shared, Supplier<T> starter, Consumer<T> shutdown) {
    this.type = type;
    this.shared = shared;
    this.starter = starter;
    this.shutdown = shutdown;
  }

  /** The server, started if it has not been yet. */
  public final synchronized T server() {
    if (server == null) {
      server = starter.get();
    }
    return server;
  }

  @Override
  public final synchronized void beforeAll(ExtensionContext context) {
    T started = server();
    if (shared) {
      context
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent(
              type.getName(),
              k -> (AutoCloseable) () -> shutdown.accept(started),
              AutoCloseable.class);
    } else if (owner == null) {
      owner = context.getUniqueId(); // the outermost class: @Nested ones come later
    }
  }

  @Override
  public final synchronized void afterAll(ExtensionContext context) {
    if (!shared && server != null && context.getUniqueId().equals(owner)) {
      try {
        shutdown.accept(server);
      } finally {
        server = null;
        owner = null;
      }
    }
  }

  @Override
  public final boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == type;
  }

  @Override
  public final Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return server();
  }

  @Override
  public final String toString() {
    return getClass().getSimpleName() + "[" + (shared ? "shared " : "dedicated ") + type.getSimpleName() + "]";
  }
}
