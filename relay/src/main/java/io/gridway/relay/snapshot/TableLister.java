package io.gridway.relay.snapshot;

import java.util.List;

/**
 * Names the tables a source's fetcher captures ({@code db.table}, in a stable order), the default of a consumer's
 * {@code snapshot.tables} (docs/bootstrap.md §5.1). The fetcher owns the selection; the relay only passes it on, so a
 * consumer never holds a second copy of the include/exclude rules. Implementations are thread-safe and may block.
 */
@FunctionalInterface
public interface TableLister {
  /** The captured tables; throws with the reason (the source down, a missing privilege) when it cannot tell. */
  List<String> tables();
}
