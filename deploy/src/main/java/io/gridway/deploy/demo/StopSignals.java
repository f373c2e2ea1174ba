package io.gridway.deploy.demo;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the first Ctrl-C (SIGINT) or SIGTERM into a request to stop, instead of the JVM's shutdown: the demo then
 * stops its parts in order (consumers, relay, cluster, and only then the databases) and deletes its files. Without
 * this, the private servers' own shutdown hooks would stop the databases under the running consumers while the
 * demo's hook waited for them. A second signal exits at once ({@link System#exit} 130, the hooks still clean up).
 *
 * <p>Uses {@code sun.misc.Signal} of the {@code jdk.unsupported} module, which the JDK keeps for exactly this,
 * through reflection because {@code javac -Werror} rejects a direct reference. Where it is missing, {@link
 * #install} returns false and the caller relies on its shutdown hook. {@link #close} puts the previous handlers
 * back. Thread-safe.
 */
final class StopSignals implements AutoCloseable {
  private static final List<String> SIGNALS = List.of("INT", "TERM");

  private final List<Object[]> previous = new ArrayList<>(); // {signal, handler}
  private volatile boolean requested;

  boolean requested() {
    return requested;
  }

  /** Installs the handlers; false when this JVM has no {@code sun.misc.Signal}. */
  boolean install() {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
      Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass},
          new OnSignal());
      for (String name : SIGNALS) {
        Object signal = signalClass.getConstructor(String.class).newInstance(name);
        previous.add(new Object[] {signal, handle.invoke(null, signal, handler)});
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      close();
      return false;
    }
  }

  @Override
  public void close() {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Method handle = signalClass.getMethod("handle", signalClass, Class.forName("sun.misc.SignalHandler"));
      for (Object[] p : previous) {
        handle.invoke(null, p[0], p[1]);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // nothing was installed, or the JVM exits anyway
    }
    previous.clear();
  }

  /** The {@code SignalHandler}: first signal asks to stop, the second exits. */
  private final class OnSignal implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      return switch (method.getName()) {
        case "handle" -> {
          if (requested) {
            System.exit(130);
          }
          requested = true;
          yield null;
        }
        case "hashCode" -> System.identityHashCode(proxy);
        case "equals" -> proxy == args[0];
        case "toString" -> "gridway demo stop signal handler";
        default -> null;
      };
    }
  }
}
