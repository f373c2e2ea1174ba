package io.gridway.policy;

import io.gridway.core.event.ChangeEvent;
import java.util.List;

/**
 * What a policy does to one event, step by step: for operators debugging a policy ({@code gridway
 * policy explain}) and for the admin UI.
 *
 * @param kept whether the event is published
 * @param steps what each applicable rule decided, in the order they run
 * @param result the published event (transformed and partitioned), or null when dropped
 * @param apply where an applier would write it and how it resolves conflicts
 */
public record Explanation(boolean kept, List<String> steps, ChangeEvent result, ApplyRule apply) {
  public Explanation {
    steps = List.copyOf(steps);
  }
}
