package io.gridway.testkit;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one lazily started server of a kind that all test classes of a JVM share (starting one costs
 * about a second). A new one is started if the previous one was shut down, e.g. at the end of a
 * JUnit run that is followed by another engine's. Thread-safe.
 */
final class SharedInstance<T> {
  private final Supplier<T> starter;
  private final Predicate<T> closed;
  private T instance;

  SharedInstance(Supplier<T> starter, Predicate<T> closed) {
    this.starter = starter;
    this.closed = closed;
  }

  synchronized T get() {
    if (instance == null || closed.test(instance)) {
      instance = starter.get();
    }
    return instance;
  }
}
