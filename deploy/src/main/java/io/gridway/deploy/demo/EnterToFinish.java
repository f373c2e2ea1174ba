package io.gridway.deploy.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Enter on the demo's standard input ends the run as the end of {@code --duration} does: the workload stops, the
 * consumers drain and source and target are compared. Ctrl-C, by contrast, stops without a comparison. A closed or
 * empty input (a service, {@code < /dev/null}) never asks. Reads on a daemon thread of its own, so a run that ends
 * otherwise does not wait for input. Thread-safe.
 */
final class EnterToFinish {
  private volatile boolean asked;

  /** Starts watching {@code in} on a daemon thread; the first line read (even an empty one) asks to finish. */
  static EnterToFinish watch(InputStream in) {
    EnterToFinish enter = new EnterToFinish();
    Thread reader = new Thread(() -> enter.readFrom(in), "gridway-demo-enter");
    reader.setDaemon(true);
    reader.start();
    return enter;
  }

  /** Blocks until {@code in} yields a line (asked) or ends (not asked). */
  void readFrom(InputStream in) {
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      if (lines.readLine() != null) {
        asked = true;
      }
    } catch (IOException e) {
      // no usable input: only --duration or Ctrl-C end the run
    }
  }

  boolean asked() {
    return asked;
  }
}
