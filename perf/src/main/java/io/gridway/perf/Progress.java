package io.gridway.perf;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A textual progress bar on stderr: {@code load [#########...........] 45% 216,000/480,000 38,012/s}.
 * Redrawn in place twice a second when stderr is a terminal, else one line per 10 %. Thread-safe:
 * workers call {@link #add(long)}; one daemon thread draws; {@link #close()} draws the final line.
 */
final class Progress implements AutoCloseable {
  private static final int WIDTH = 30;
  private final String label;
  private final long total;
  private final PrintStream out;
  private final boolean terminal;
  private final AtomicLong done = new AtomicLong();
  private final long startNanos = System.nanoTime();
  private final Thread drawer;
  private int lastDecile = -1;

  Progress(String label, long total, PrintStream out) {
    this.label = label;
    this.total = Math.max(1, total);
    this.out = out;
    this.terminal = System.console() != null;
    this.drawer = new Thread(this::drawLoop, "perf-progress-" + label);
    drawer.setDaemon(true);
    drawer.start();
  }

  void add(long n) {
    done.addAndGet(n);
  }

  /** Sets the absolute amount done (for progress read from elsewhere, e.g. a relay's API). */
  void set(long n) {
    done.set(n);
  }

  private void drawLoop() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(500);
        draw(false);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // our own thread, ending
    }
  }

  private synchronized void draw(boolean last) {
    long now = Math.min(done.get(), total);
    int decile = (int) (now * 10 / total);
    if (!terminal && !last && decile == lastDecile) {
      return;
    }
    lastDecile = decile;
    int filled = (int) (now * WIDTH / total);
    double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
    String line = String.format(Locale.ROOT, "%s [%s%s] %3d%% %,d/%,d %,.0f/s %.1f s", label, "#".repeat(filled),
        ".".repeat(WIDTH - filled), now * 100 / total, now, total, now / seconds, seconds);
    out.print(terminal ? "\r" + line + (last ? "\n" : "") : line + "\n");
    out.flush();
  }

  @Override
  public void close() {
    drawer.interrupt();
    try {
      drawer.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    draw(true);
  }
}
