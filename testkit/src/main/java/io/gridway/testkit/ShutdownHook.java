package io.gridway.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The safety net that stops this JVM's servers when it exits without closing them (a test that
 * forgot, an aborted run). Native servers would otherwise outlive the JVM until the next run's
 * {@link OrphanReaper}. Thread-safe.
 */
final class ShutdownHook {
  private static final Logger LOG = LoggerFactory.getLogger(ShutdownHook.class);
  private static final Map<Object, Runnable> OPEN = new LinkedHashMap<>();
  private static boolean installed;

  private ShutdownHook() {}

  static synchronized void register(Object server, Runnable shutdown) {
    if (!installed) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(ShutdownHook::closeAll, "gridway-testkit-shutdown"));
      installed = true;
    }
    OPEN.put(server, shutdown);
  }

  static synchronized void unregister(Object server) {
    OPEN.remove(server);
  }

  private static void closeAll() {
    List<Map.Entry<Object, Runnable>> open;
    synchronized (ShutdownHook.class) {
      open = new ArrayList<>(OPEN.entrySet());
    }
    for (Map.Entry<Object, Runnable> server : open) {
      try {
        server.getValue().run();
      } catch (RuntimeException e) {
        LOG.warn("cannot stop {} at JVM exit", server.getKey(), e);
      }
    }
  }
}
